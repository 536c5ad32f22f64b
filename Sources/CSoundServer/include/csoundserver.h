// Thin shim: asks a PulseAudio-protocol sound server (PulseAudio, or PipeWire's
// pipewire-pulse) the rate of its default sink and source. libpulse is loaded at run time
// (dlopen "libpulse.so.0") so softmodem neither needs it to build nor to run without a server.
#ifndef CSOUNDSERVER_H
#define CSOUNDSERVER_H

/// The rates found: 0 where the server has no default sink or source; `pipewire` is 1 when
/// the server's name says PipeWire (pipewire-pulse) rather than PulseAudio.
typedef struct csound_server_rates {
    unsigned int sink;
    unsigned int source;
    int pipewire;
} csound_server_rates;

/// Connects with pa_context_connect (no autospawn), then pa_context_get_server_info,
/// pa_context_get_sink_info_by_name and pa_context_get_source_info_by_name for the defaults,
/// driving pa_mainloop_prepare/poll/dispatch in steps of at most 50 ms. Returns 0 with
/// `rates` filled; -1 when libpulse is absent or no server answered; -2 when `timeout_ms`
/// passed first (a stopped server); -3 when `cancelled` (may be NULL) returned nonzero.
int csound_server_rates_query(csound_server_rates *rates, int timeout_ms, int (*cancelled)(void));

#endif
