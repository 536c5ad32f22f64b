#pragma once
#include <alsa/asoundlib.h>

/* alsa-lib prints its own diagnostics on stderr ("ALSA lib pcm.c:...: Unknown PCM x");
   softmodem reports every failure as one line of its own, so those are silenced. The
   handler is variadic, which Swift cannot define, hence this C helper. */
static void calsa_quiet_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_library_errors(void) { snd_lib_error_set_handler(calsa_quiet_error); }
