// The commit stamped by scripts/dist.sh (see include/CBuildInfo.h). Only this file includes the
// generated header, so a new commit recompiles this file and the command-line module that imports
// it, and relinks the binary; the libraries are not rebuilt.
#include "CBuildInfo.h"

#if defined(__has_include)
#if __has_include(<mempressure_build_commit.h>)
#include <mempressure_build_commit.h>
#endif
#endif

#ifndef MEMPRESSURE_COMMIT
#define MEMPRESSURE_COMMIT "unknown"
#endif

const char *mempressure_build_commit(void) { return MEMPRESSURE_COMMIT; }
