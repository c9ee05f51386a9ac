"""The Swift raw multi-line string literal that holds a file's text unchanged, shared by the scripts
that compile shipped files into the library (generate-shipped-policies.py,
generate-shipped-workloads.py)."""


def literal(text: str) -> str:
    """`#\"\"\"` … `\"\"\"#`, with as many `#` as it takes for no line of `text` to end the literal."""
    hashes = "#"
    while '"""' + hashes in text or '"' + hashes in text:
        hashes += "#"
    return f'{hashes}"""\n{text}\n"""{hashes}'
