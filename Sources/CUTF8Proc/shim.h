#ifndef LIBRARYCLI_CUTF8PROC_SHIM_H
#define LIBRARYCLI_CUTF8PROC_SHIM_H
// The system's utf8proc (Debian: libutf8proc-dev): Unicode normalisation, case folding and mark stripping for search.
#include <utf8proc.h>
#endif
