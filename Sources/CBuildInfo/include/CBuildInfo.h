// CBuildInfo: the commit a binary was built from, as `mempressure --version` prints it.
//
// The commit cannot come from Package.swift (SwiftPM caches the evaluated manifest, so a hash read
// there goes stale after the next commit). scripts/dist.sh writes it into a header of the build
// folder, mempressure_build_commit.h, which BuildInfo.c includes when the build's include path has
// it (`-Xcc -I…`); a plain `swift build` has no such header and says "unknown".
#ifndef MEMORYPRESSURE_CBUILDINFO_H
#define MEMORYPRESSURE_CBUILDINFO_H

/// The commit this binary was built from (12 hex digits, `-dirty` when the tree had changes), or
/// "unknown" for a build that was not told (`swift build` alone).
const char *mempressure_build_commit(void);

#endif
