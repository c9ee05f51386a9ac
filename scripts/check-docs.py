#!/usr/bin/env python3
"""Checks the doc comments of the library's public API (README, "Quality bar": every public
declaration has a doc comment, and every public function states its cost).

Scans Sources/**/*.swift, except the CLI (Sources/mempressure/), and reports with file:line

  (a) every public declaration without a `///` (or `/** */`) doc comment directly above it
      (attributes such as `@inlinable` may stand in between, on their own lines or spanning
      several; a blank line or a plain `//` comment may not). Public means declared `public` or
      `open`, or implicitly public: the cases of a public enum, the requirements of a public
      protocol, and the members of a `public extension` that name no access level;
  (b) every public func, init or subscript whose doc comment has no `- Complexity:` line.
      Protocol requirements are exempt from (b): they have no body, their cost is the
      conforming type's.

String literals (including multi-line and raw ones, with interpolations) and comments are
masked before declarations are looked for, so text inside them is never taken for code.

Exits 1 listing the gaps if there are any; otherwise prints a one-line summary and exits 0.

    scripts/check-docs.py            # the whole library
    scripts/check-docs.py FILE...    # only these files (paths relative to the repository or absolute)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
EXCLUDED = [SOURCES / "mempressure"]

ACCESS = {"public", "open", "package", "internal", "fileprivate", "private"}
MODIFIERS = {
    "final", "static", "override", "mutating", "nonmutating", "nonisolated", "convenience",
    "required", "indirect", "lazy", "weak", "unowned", "dynamic", "optional", "consuming",
    "borrowing", "__consuming", "distributed", "prefix", "postfix", "infix", "isolated",
}
TYPE_KEYWORDS = {"struct", "class", "enum", "protocol", "actor", "extension"}
KEYWORDS = TYPE_KEYWORDS | {
    "func", "init", "subscript", "var", "let", "case", "typealias", "associatedtype", "macro",
    "operator", "precedencegroup",
}
CALLABLE = {"func", "init", "subscript"}
# A word, with an optional parenthesized argument (`private(set)`, `nonisolated(unsafe)`).
WORD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)(\s*\(\s*[A-Za-z_]*\s*\))?")
ATTRIBUTE = re.compile(r"\s*@[A-Za-z_][A-Za-z0-9_.]*")


def mask(text):
    """Returns (masked, line_starts): `text` with the contents of string literals and comments
    replaced by spaces (newlines kept, so lines and columns are unchanged), and for each line
    whether it starts in code (not inside a string literal or a block comment)."""
    out = list(text)
    n = len(text)
    i = 0
    # The stack of open contexts: ("code", parens) for the file or an interpolation,
    # ("string", hashes, multiline), ("comment", depth).
    stack = [["code", 0]]
    line_in_code = [True]

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        top = stack[-1]
        c = text[i]
        if c == "\n":
            line_in_code.append(top[0] == "code")
            if top[0] == "string" and not top[2]:
                # An unterminated single-line string ends at the end of its line.
                stack.pop()
            i += 1
            continue
        if top[0] == "comment":
            if text.startswith("/*", i):
                top[1] += 1
                blank(i, i + 2)
                i += 2
            elif text.startswith("*/", i):
                top[1] -= 1
                blank(i, i + 2)
                i += 2
                if top[1] == 0:
                    stack.pop()
            else:
                blank(i, i + 1)
                i += 1
            continue
        if top[0] == "string":
            hashes, multiline = top[1], top[2]
            close = ('"""' if multiline else '"') + "#" * hashes
            escape = "\\" + "#" * hashes
            if text.startswith(escape + "(", i):
                blank(i, i + len(escape) + 1)
                i += len(escape) + 1
                stack.append(["code", 0])
                continue
            if text.startswith(escape, i):
                # An escape: the backslash sequence and the character after it are string.
                blank(i, min(n, i + len(escape) + 1))
                if i + len(escape) < n and text[i + len(escape)] == "\n":
                    i += len(escape)
                else:
                    i += len(escape) + 1
                continue
            if text.startswith(close, i):
                stack.pop()
                i += len(close)
                continue
            blank(i, i + 1)
            i += 1
            continue
        # Code.
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
            continue
        if text.startswith("/*", i):
            stack.append(["comment", 1])
            blank(i, i + 2)
            i += 2
            continue
        m = re.match(r'(#*)("""|")', text[i:i + 64])
        if m and (m.group(1) == "" or c == "#"):
            hashes = len(m.group(1))
            multiline = m.group(2) == '"""'
            stack.append(["string", hashes, multiline])
            i += m.end()
            continue
        if c == "(":
            top[1] += 1
        elif c == ")":
            if top[1] == 0 and len(stack) > 1:
                # The end of an interpolation: back into its string.
                stack.pop()
                blank(i, i + 1)
                i += 1
                continue
            top[1] -= 1
        i += 1
    return "".join(out), line_in_code


def skip_attributes(code, pos):
    """The position after the attributes starting at `pos` in `code`, and whether an attribute's
    parentheses are still open at the end of `code`."""
    while True:
        m = ATTRIBUTE.match(code, pos)
        if not m:
            return pos, False
        pos = m.end()
        rest = code[pos:]
        if rest.lstrip().startswith("("):
            depth = 0
            k = pos
            while k < len(code):
                if code[k] == "(":
                    depth += 1
                elif code[k] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            if depth > 0:
                return len(code), True
            pos = k + 1


def parse_declaration(code):
    """(access, keyword) if the line `code` (masked, attributes already skipped) starts a
    declaration; access is the explicit access level or None."""
    pos = 0
    access = None
    words = []
    while True:
        m = WORD.match(code, pos)
        if not m:
            return None
        word, argument = m.group(1), m.group(2)
        if word in ACCESS:
            if argument is None:
                access = word
            # `private(set)` and the like only restrict the setter.
        elif word in MODIFIERS:
            pass
        elif word == "class" and WORD.match(code, m.end()) and WORD.match(code, m.end()).group(1) in (
            KEYWORDS | MODIFIERS | ACCESS
        ):
            pass  # `class func`, `class var`: a modifier.
        elif word in KEYWORDS:
            after = code[m.end(1):m.end(1) + 1]  # (`init()`: the parentheses are not an argument)
            if word == "init" and after not in ("(", "?", "!", "<", ""):
                return None
            if word in ("func", "init", "subscript") or after in ("", " ", "\t", "<", "(", "?", "!"):
                return access, word
            return None
        else:
            return None
        words.append(word)
        pos = m.end()


class Context:
    """A brace-delimited scope: what kind of declaration's body it is, and whether that
    declaration is public."""

    def __init__(self, keyword=None, public=False, public_extension=False):
        self.keyword = keyword
        self.public = public
        self.public_extension = public_extension


def check_file(path):
    text = path.read_text(encoding="utf-8")
    masked, line_in_code = mask(text)
    lines = text.split("\n")
    code_lines = masked.split("\n")
    gaps = []  # (line number, message)
    callables = documented = 0
    stack = [Context()]
    pending = None  # The Context the next `{` opens, after a type or extension header.
    doc = []  # The doc-comment lines directly above the current line.
    in_doc_block = False
    attribute_open = False
    attribute_depth = 0
    for index, (raw, code) in enumerate(zip(lines, code_lines)):
        number = index + 1
        stripped = raw.strip()
        in_code = line_in_code[index] if index < len(line_in_code) else True
        # Doc comments.
        if in_doc_block:
            doc.append(stripped)
            if "*/" in raw:
                in_doc_block = False
            continue
        if in_code and code.strip() == "" and stripped.startswith("///"):
            doc.append(stripped)
            continue
        if in_code and code.strip() == "" and stripped.startswith("/**") and not stripped.startswith("/**/"):
            doc = [stripped]
            in_doc_block = "*/" not in stripped[3:]
            continue
        if attribute_open:
            # Inside a multi-line attribute: skip to the end of its parentheses.
            k = 0
            while k < len(code) and attribute_depth > 0:
                if code[k] == "(":
                    attribute_depth += 1
                elif code[k] == ")":
                    attribute_depth -= 1
                k += 1
            if attribute_depth > 0:
                continue
            attribute_open = False
            code = code[k:]
            if code.strip() == "":
                continue  # The attribute ends its line: the doc comment above still applies.
        if code.strip() == "":
            # A blank line, a plain comment, or a line inside a string literal: whatever doc
            # comment came before does not belong to the next declaration.
            doc = []
            pending = apply_braces(code, stack, pending)
            continue
        start, still_open = skip_attributes(code, 0)
        if still_open:
            attribute_open = True
            attribute_depth = code.count("(") - code.count(")")
            continue
        rest = code[start:]
        if rest.strip() == "":
            continue  # Attributes alone on their line: the doc comment above still applies.
        declaration = parse_declaration(rest)
        if declaration is not None:
            access, keyword = declaration
            here = stack[-1]
            requirement = here.keyword == "protocol"
            if keyword == "case" and here.keyword != "enum":
                public = False  # A `case` of a switch.
            elif access in ("public", "open"):
                public = True
            elif access is not None:
                public = False
            elif requirement:
                public = here.public
            elif keyword == "case":
                public = here.public
            elif here.keyword == "extension":
                public = here.public_extension
            else:
                public = False
            if keyword == "extension":
                pending = Context("extension", public=False, public_extension=access == "public")
            else:
                if public:
                    if not doc:
                        gaps.append((number, f"public {keyword} has no doc comment: {stripped}"))
                    if keyword in CALLABLE and not requirement:
                        callables += 1
                        if any("- Complexity:" in d for d in doc):
                            documented += 1
                        elif doc:
                            gaps.append((number, f"public {keyword} has no '- Complexity:' line: {stripped}"))
                if keyword in TYPE_KEYWORDS:
                    pending = Context(keyword, public=public)
        doc = []
        pending = apply_braces(code, stack, pending)
    return gaps, callables, documented


def apply_braces(code, stack, pending):
    """Pushes and pops the scopes `code` opens and closes; the first `{` opens `pending`'s
    scope. Returns what is still pending."""
    for ch in code:
        if ch == "{":
            stack.append(pending if pending is not None else Context())
            pending = None
        elif ch == "}":
            if len(stack) > 1:
                stack.pop()
    return pending


def main(argv):
    if argv:
        files = [pathlib.Path(a).resolve() for a in argv]
    else:
        files = sorted(
            p for p in SOURCES.rglob("*.swift")
            if not any(p.is_relative_to(excluded) for excluded in EXCLUDED)
        )
    all_gaps = []
    callables = documented = 0
    for path in files:
        gaps, c, d = check_file(path)
        callables += c
        documented += d
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        all_gaps += [f"{shown}:{number}: {message}" for number, message in gaps]
    summary = (
        f"check-docs: {len(files)} files, {documented} of {callables} public functions "
        f"(func/init/subscript) state their complexity"
    )
    if all_gaps:
        print("\n".join(all_gaps))
        print(f"{summary}; {len(all_gaps)} gaps")
        return 1
    print(f"{summary}; every public declaration is documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
