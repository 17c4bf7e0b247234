#ifndef LIFETRACE_CZLIB_SHIM_H
#define LIFETRACE_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros that Swift cannot import; these wrappers pass the
   version and struct size the macros would. */
static inline int lifetrace_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

static inline int lifetrace_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
