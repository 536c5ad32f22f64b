#include "csoundserver.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

// The few libpulse declarations used, as its ABI (stable since 0.9) defines them.
typedef struct pa_mainloop pa_mainloop;
typedef struct pa_mainloop_api pa_mainloop_api;
typedef struct pa_context pa_context;
typedef struct pa_operation pa_operation;
typedef struct {
    int format;
    uint32_t rate;
    uint8_t channels;
} pa_sample_spec;
typedef struct {
    const char *user_name, *host_name, *server_version, *server_name;
    pa_sample_spec sample_spec;
    const char *default_sink_name, *default_source_name;
} pa_server_info;
// pa_sink_info and pa_source_info open with the same four fields.
typedef struct {
    const char *name;
    uint32_t index;
    const char *description;
    pa_sample_spec sample_spec;
} pa_device_info_head;
enum { PA_CONTEXT_READY = 4, PA_CONTEXT_FAILED = 5, PA_CONTEXT_TERMINATED = 6, PA_CONTEXT_NOAUTOSPAWN = 1 };

typedef void (*server_cb)(pa_context *, const pa_server_info *, void *);
typedef void (*device_cb)(pa_context *, const pa_device_info_head *, int, void *);

static struct {
    int loaded;
    pa_mainloop *(*mainloop_new)(void);
    void (*mainloop_free)(pa_mainloop *);
    pa_mainloop_api *(*mainloop_get_api)(pa_mainloop *);
    int (*mainloop_prepare)(pa_mainloop *, int);
    int (*mainloop_poll)(pa_mainloop *);
    int (*mainloop_dispatch)(pa_mainloop *);
    pa_context *(*context_new)(pa_mainloop_api *, const char *);
    int (*context_connect)(pa_context *, const char *, int, const void *);
    int (*context_get_state)(pa_context *);
    void (*context_disconnect)(pa_context *);
    void (*context_unref)(pa_context *);
    pa_operation *(*get_server_info)(pa_context *, server_cb, void *);
    pa_operation *(*get_sink_info_by_name)(pa_context *, const char *, device_cb, void *);
    pa_operation *(*get_source_info_by_name)(pa_context *, const char *, device_cb, void *);
    void (*operation_unref)(pa_operation *);
} pa;

#define LOAD(field, symbol) \
    if (!(*(void **)&pa.field = dlsym(library, symbol))) return 0;

static int load(void) {
    if (pa.loaded) return pa.loaded > 0;
    pa.loaded = -1;
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    LOAD(mainloop_new, "pa_mainloop_new")
    LOAD(mainloop_free, "pa_mainloop_free")
    LOAD(mainloop_get_api, "pa_mainloop_get_api")
    LOAD(mainloop_prepare, "pa_mainloop_prepare")
    LOAD(mainloop_poll, "pa_mainloop_poll")
    LOAD(mainloop_dispatch, "pa_mainloop_dispatch")
    LOAD(context_new, "pa_context_new")
    LOAD(context_connect, "pa_context_connect")
    LOAD(context_get_state, "pa_context_get_state")
    LOAD(context_disconnect, "pa_context_disconnect")
    LOAD(context_unref, "pa_context_unref")
    LOAD(get_server_info, "pa_context_get_server_info")
    LOAD(get_sink_info_by_name, "pa_context_get_sink_info_by_name")
    LOAD(get_source_info_by_name, "pa_context_get_source_info_by_name")
    LOAD(operation_unref, "pa_operation_unref")
    pa.loaded = 1;
    return 1;
}

// What the callbacks fill: the names come with the server info, the rates after.
typedef struct {
    int pending;  // answers still awaited
    csound_server_rates *rates;
} query;

static void on_device(pa_context *c, const pa_device_info_head *info, int eol, void *user, int sink) {
    (void)c;
    query *q = user;
    if (eol) {
        q->pending -= 1;
        return;
    }
    if (info) (sink ? &q->rates->sink : &q->rates->source)[0] = info->sample_spec.rate;
}
static void on_sink(pa_context *c, const pa_device_info_head *i, int eol, void *u) { on_device(c, i, eol, u, 1); }
static void on_source(pa_context *c, const pa_device_info_head *i, int eol, void *u) { on_device(c, i, eol, u, 0); }

static void on_server(pa_context *c, const pa_server_info *info, void *user) {
    query *q = user;
    q->pending -= 1;
    if (!info) return;
    q->rates->pipewire = info->server_name && strstr(info->server_name, "PipeWire") != NULL;
    pa_operation *o;
    if (info->default_sink_name && (o = pa.get_sink_info_by_name(c, info->default_sink_name, on_sink, q))) {
        q->pending += 1;
        pa.operation_unref(o);
    }
    if (info->default_source_name && (o = pa.get_source_info_by_name(c, info->default_source_name, on_source, q))) {
        q->pending += 1;
        pa.operation_unref(o);
    }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int csound_server_rates_query(csound_server_rates *rates, int timeout_ms, int (*cancelled)(void)) {
    rates->sink = 0;
    rates->source = 0;
    rates->pipewire = 0;
    if (!load()) return -1;
    pa_mainloop *loop = pa.mainloop_new();
    if (!loop) return -1;
    pa_context *context = pa.context_new(pa.mainloop_get_api(loop), "softmodem");
    int result = -1;
    query q = {.pending = 0, .rates = rates};
    int asked = 0;
    double deadline = now_ms() + timeout_ms;
    int connected = context && pa.context_connect(context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) >= 0;
    while (connected) {
        if (cancelled && cancelled()) {
            result = -3;
            break;
        }
        double left = deadline - now_ms();
        if (left <= 0) {
            result = -2;
            break;
        }
        int state = pa.context_get_state(context);
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) break;
        if (state == PA_CONTEXT_READY && !asked) {
            pa_operation *o = pa.get_server_info(context, on_server, &q);
            if (!o) break;
            pa.operation_unref(o);
            q.pending = 1;
            asked = 1;
        }
        if (asked && q.pending == 0) {
            result = 0;
            break;
        }
        int step = left < 50 ? (int)left : 50;
        if (pa.mainloop_prepare(loop, step * 1000) < 0 || pa.mainloop_poll(loop) < 0 || pa.mainloop_dispatch(loop) < 0)
            break;
    }
    if (context) {
        pa.context_disconnect(context);
        pa.context_unref(context);
    }
    pa.mainloop_free(loop);
    return result;
}
