/*
 * An ALSA PCM plugin that behaves like a kernel sound card whose output is wired back to its
 * input (as snd-aloop is): what one process plays on it, another captures from it, in real
 * time. The loopback tests use it on machines with no sound card, where the only devices are
 * a sound server's, which bend the rules a real `hw:` device keeps; code that passes against
 * those can still hang or misbehave on a card. Each rule below is one that the kernel enforces
 * for a `hw:` device and that a sound server does not:
 *
 * - Real time. The device runs on its own clock (CLOCK_MONOTONIC at the one native rate), not
 *   on the application's calls: the hardware pointer is worked out from the clock whenever
 *   alsa-lib asks, so there is no thread. It moves a period at a time, as at a card's period
 *   interrupt (snd_pcm_delay is exact). Capture with nothing playing delivers silence at the
 *   native rate, as a card's ADC does.
 * - One native rate. hw_params offer only the configured rate, so asking for 44100 on a 48000
 *   device fails as on `hw:`, where no rate converter sits in between. Period and buffer limits
 *   are in bytes, as a driver's are: period 64 bytes to 512 KiB, 2 to 64 periods, buffer at
 *   most 2 MiB.
 * - A prepared capture stream is not ready until it is started. Its avail stays 0 and poll (so
 *   snd_pcm_wait) never reports it ready: an application that waits before its first read,
 *   with nothing to start the stream, waits forever on a card. snd_pcm_start, or a read that
 *   meets start_threshold, starts it. The poll descriptor is real (an epoll set holding a
 *   timerfd and an inotify watch), and wakes when avail reaches avail_min, at a period
 *   boundary as an interrupt would, or at once for an xrun, an unplug or a stopped stream.
 * - Xrun when the application falls behind: with the default stop_threshold (the buffer size),
 *   a capture that is not read for a buffer's time overruns, and a playback whose hardware
 *   pointer reaches the application pointer underruns; reads, writes and avail return -EPIPE
 *   until snd_pcm_prepare or snd_pcm_recover. An application's own stop_threshold is obeyed.
 * - One opener per direction, as a card without hardware mixing has: a second open fails with
 *   -EBUSY, until the holder closes (a flock on <state>.capture.lock or <state>.playback.lock).
 *   The kernel makes a blocking-mode open wait instead; this plugin fails in both modes.
 * - Unplug. While <state>.unplugged exists, opening fails with -ENODEV, and an open stream goes
 *   to SND_PCM_STATE_DISCONNECTED at its next call, as on a USB card pulled out mid-stream:
 *   reads, writes, snd_pcm_wait, snd_pcm_delay, prepare and start fail with -ENODEV, and
 *   snd_pcm_recover cannot undo it. A waiter is woken at once (inotify on the directory). As
 *   on a card whose status page is mapped (x86), snd_pcm_avail_update itself returns a frame
 *   count, and snd_pcm_state shows the change only once a call has reached the plugin. The
 *   stream stays disconnected if the file goes away; a new open gets a new stream.
 *
 * Not like a card: no pause or resume; a capture drain drops at once; a blocking read or write
 * on a stream that can never start (start_threshold above what is asked) waits for good, where
 * the kernel gives -EIO after 10 s (alsa-lib's ioplug polls with no timeout); snd_pcm_reset
 * on a running stream gives an xrun (alsa-lib zeroes both pointers without telling the plugin).
 *
 * The air between output and input is <state>.air, a file every opener maps: a ring of 2^21
 * mono samples indexed by absolute frame time (CLOCK_MONOTONIC times the rate), each slot
 * stamped with the lap it belongs to so that old laps read as silence. Playback writes each
 * frame at the time it will be played, the frames written before start when it starts;
 * capture reads the frames whose time has passed. Mono air: playback of 2 channels plays its
 * first channel, capture of 2 channels hears the air on both. Formats: S16_LE and FLOAT_LE.
 *
 *   pcm_type.kernelrules { lib "/path/to/libasound_module_pcm_kernelrules.so" }
 *   pcm.kerneltest { type kernelrules  state "/tmp/dir/kerneltest"  rate 48000 }
 *
 * `state` is the path prefix of the shared files (its directory must exist); `rate` is the one
 * native rate (48000 if left out). `air "/tmp/dir/cable"` (optional) names the air file's
 * prefix instead, and `playback_air` and `capture_air` name it for one direction: two devices
 * with their own `state` whose playback air is the other's capture air are snd-aloop's two
 * ends (each hears the other, not itself), each with its own locks, so two programs can each
 * hold both directions of one, as two bridges over a cable between two machines do. Built by the test with:
 *   cc -shared -fPIC -DPIC -O2 -o libasound_module_pcm_kernelrules.so kernelrules_pcm.c -lasound
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define AIR_MAGIC 0x6b726169u
#define AIR_FRAMES (1u << 21)  /* 43.7 s at 48 kHz; twice the largest buffer (2 MiB of S16 mono) */
#define AIR_MASK (AIR_FRAMES - 1)

#define PERIOD_BYTES_MIN 64
#define PERIOD_BYTES_MAX (512 * 1024)
#define BUFFER_BYTES_MAX (2 * 1024 * 1024)

typedef struct {
    uint32_t lap;  /* frame / AIR_FRAMES + 1 of the frame held; anything else reads as silence */
    float sample;
} air_slot_t;

typedef struct {
    uint32_t magic;
    uint32_t rate;
    uint32_t frames;
    uint32_t unused[13];
    air_slot_t slot[];
} air_t;

typedef struct {
    snd_pcm_ioplug_t io;
    unsigned int rate;
    char *unplug_path;
    int lock_fd, air_fd, timer_fd, notify_fd, epoll_fd;
    air_t *air;
    size_t air_size;
    /* set by hw_params and sw_params */
    snd_pcm_uframes_t period, buffer, avail_min, stop_threshold, boundary;
    float *pending;      /* playback frames written before start, by position in the buffer */
    /* stream: positions count frames since prepare */
    int prepared, running, xrun, gone;
    uint64_t start_frame;  /* absolute frame time of position 0 */
    int64_t frozen_hw;     /* the hardware position while not running */
    uint64_t air_end;      /* playback: one past the last air frame written */
    snd_pcm_uframes_t last_ptr;
} kr_t;

/* ---- time ---- */

static uint64_t now_frame(const kr_t *kr) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * kr->rate + (uint64_t)ts.tv_nsec * kr->rate / 1000000000u;
}

/* The first instant at which now_frame() reaches `frame`. */
static struct timespec frame_instant(const kr_t *kr, uint64_t frame) {
    struct timespec ts;
    uint64_t rem = frame % kr->rate;
    ts.tv_sec = (time_t)(frame / kr->rate);
    ts.tv_nsec = (long)((rem * 1000000000u + kr->rate - 1) / kr->rate);
    return ts;
}

/* ---- air ---- */

static uint32_t lap_of(uint64_t frame) { return (uint32_t)(frame / AIR_FRAMES) + 1; }

static void air_put(kr_t *kr, uint64_t frame, float sample) {
    air_slot_t *slot = &kr->air->slot[frame & AIR_MASK];
    __atomic_store_n(&slot->lap, 0, __ATOMIC_RELAXED);
    __atomic_store(&slot->sample, &sample, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->lap, lap_of(frame), __ATOMIC_RELEASE);
    if (frame + 1 > kr->air_end) kr->air_end = frame + 1;
}

static float air_get(const kr_t *kr, uint64_t frame) {
    const air_slot_t *slot = &kr->air->slot[frame & AIR_MASK];
    float sample;
    if (__atomic_load_n(&slot->lap, __ATOMIC_ACQUIRE) != lap_of(frame)) return 0.0f;
    __atomic_load(&slot->sample, &sample, __ATOMIC_RELAXED);
    return sample;
}

/* A stopped playback takes back what it had written ahead of the clock: it will not be played. */
static void air_take_back(kr_t *kr) {
    if (kr->io.stream != SND_PCM_STREAM_PLAYBACK || !kr->air_end) return;
    uint64_t from = now_frame(kr);
    if (kr->air_end > from + AIR_FRAMES) from = kr->air_end - AIR_FRAMES;
    for (uint64_t f = from; f < kr->air_end; f++) {
        air_slot_t *slot = &kr->air->slot[f & AIR_MASK];
        if (__atomic_load_n(&slot->lap, __ATOMIC_RELAXED) == lap_of(f))
            __atomic_store_n(&slot->lap, 0, __ATOMIC_RELEASE);
    }
    kr->air_end = 0;
}

/* ---- samples ---- */

static void *sample_at(const snd_pcm_channel_area_t *area, snd_pcm_uframes_t frame) {
    return (char *)area->addr + (area->first + (size_t)frame * area->step) / 8;
}

static float sample_in(snd_pcm_format_t format, const void *p) {
    if (format == SND_PCM_FORMAT_FLOAT_LE) return *(const float *)p;
    return *(const int16_t *)p / 32768.0f;
}

static void sample_out(snd_pcm_format_t format, void *p, float v) {
    if (format == SND_PCM_FORMAT_FLOAT_LE) { *(float *)p = v; return; }
    float s = v * 32768.0f;
    *(int16_t *)p = s >= 32767.0f ? 32767 : s <= -32768.0f ? -32768 : (int16_t)(s < 0 ? s - 0.5f : s + 0.5f);
}

/* ---- the device's clock and rules ---- */

/* The hardware position: frames since start while running, where it stopped otherwise. */
static int64_t hw_pos(const kr_t *kr) {
    if (!kr->running) return kr->frozen_hw;
    return (int64_t)(now_frame(kr) - kr->start_frame);
}

/* The application position on the same scale as hw (alsa-lib wraps it at the boundary). */
static int64_t appl_pos(const kr_t *kr, int64_t hw) {
    uint64_t boundary = kr->boundary ? kr->boundary : LONG_MAX;
    int64_t hw_wrapped = (int64_t)((uint64_t)hw % boundary);
    int64_t d = (int64_t)kr->io.appl_ptr - hw_wrapped;
    int64_t half = (int64_t)(boundary / 2);
    if (d > half) d -= (int64_t)boundary;
    else if (d < -half) d += (int64_t)boundary;
    return hw + d;
}

static void stop_clock(kr_t *kr) {
    if (kr->running) kr->frozen_hw = hw_pos(kr);
    kr->running = 0;
    air_take_back(kr);
}

static void timer_at(kr_t *kr, const struct timespec *when) {
    struct itimerspec its = { .it_interval = { 0, 0 }, .it_value = *when };
    timerfd_settime(kr->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void timer_now(kr_t *kr) {
    struct itimerspec its = { .it_interval = { 0, 0 }, .it_value = { 0, 1 } };
    timerfd_settime(kr->timer_fd, 0, &its, NULL);
}

static void timer_off(kr_t *kr) {
    struct itimerspec its = { { 0, 0 }, { 0, 0 } };
    timerfd_settime(kr->timer_fd, 0, &its, NULL);
}

/* True (and the stream disconnected from now on) once <state>.unplugged exists. */
static int unplugged(kr_t *kr) {
    if (kr->gone) return 1;
    if (access(kr->unplug_path, F_OK) != 0) return 0;
    kr->gone = 1;
    stop_clock(kr);
    snd_pcm_ioplug_set_state(&kr->io, SND_PCM_STATE_DISCONNECTED);
    timer_now(kr);  /* a waiter wakes to POLLERR */
    return 1;
}

/* The kernel's stop rule: avail reaching stop_threshold is an xrun, and the stream stops there. */
static int check(kr_t *kr) {
    if (unplugged(kr)) return -ENODEV;
    if (kr->xrun) return -EPIPE;
    if (!kr->running || kr->io.state == SND_PCM_STATE_DRAINING) return 0;
    if (kr->stop_threshold >= kr->boundary) return 0;
    int64_t hw = hw_pos(kr), appl = appl_pos(kr, hw);
    int64_t stop = (int64_t)kr->stop_threshold;
    int64_t limit = kr->io.stream == SND_PCM_STREAM_CAPTURE ? appl + stop : appl - (int64_t)kr->buffer + stop;
    if (hw < limit) return 0;
    kr->xrun = 1;
    stop_clock(kr);
    kr->frozen_hw = limit;
    snd_pcm_ioplug_set_state(&kr->io, SND_PCM_STATE_XRUN);
    timer_now(kr);
    return -EPIPE;
}

/*
 * Readiness for poll, `moved` frames after the application pointer (a transfer in progress):
 * 1 when avail >= avail_min now; otherwise 0, with *wake set to the absolute
 * frame at which to look again (the period boundary where it becomes ready, or the xrun), or to
 * 0 when nothing but the application can change it (a prepared, not started, stream).
 */
static int readiness(kr_t *kr, int64_t moved, uint64_t *wake) {
    int64_t hw = hw_pos(kr), appl = appl_pos(kr, hw) + moved;
    int64_t need = kr->avail_min ? (int64_t)kr->avail_min : 1;
    int capture = kr->io.stream == SND_PCM_STREAM_CAPTURE;
    int draining = kr->io.state == SND_PCM_STATE_DRAINING;
    int64_t target = capture ? appl + need : draining ? appl : appl - (int64_t)kr->buffer + need;
    *wake = 0;
    if (hw >= target) return 1;
    if (!kr->running) return 0;
    if (!draining) {
        int64_t period = (int64_t)kr->period;
        target = (target + period - 1) / period * period;
    }
    if (!draining && kr->stop_threshold < kr->boundary) {
        int64_t stop = (int64_t)kr->stop_threshold;
        int64_t limit = capture ? appl + stop : appl - (int64_t)kr->buffer + stop;
        if (limit < target) target = limit;
    }
    if (hw >= target) return 1;
    *wake = kr->start_frame + (uint64_t)target;
    return 0;
}

/* Sets the timer so that the poll descriptor is readable exactly when poll should report. */
static int arm_after(kr_t *kr, int64_t moved) {
    uint64_t wake;
    if (kr->gone || kr->xrun || !kr->prepared) { timer_now(kr); return 1; }
    if (readiness(kr, moved, &wake)) { timer_now(kr); return 1; }
    if (!wake) { timer_off(kr); return 0; }
    struct timespec when = frame_instant(kr, wake);
    timer_at(kr, &when);
    return 0;
}

static int arm(kr_t *kr) { return arm_after(kr, 0); }

/* ---- callbacks ---- */

static int kr_start(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    if (unplugged(kr)) return -ENODEV;
    kr->start_frame = now_frame(kr);
    kr->running = 1;
    kr->frozen_hw = 0;
    if (io->stream == SND_PCM_STREAM_PLAYBACK) {
        int64_t appl = appl_pos(kr, 0);
        if (appl > (int64_t)kr->buffer) appl = (int64_t)kr->buffer;
        for (int64_t p = 0; p < appl; p++)
            air_put(kr, kr->start_frame + (uint64_t)p, kr->pending[p % (int64_t)kr->buffer]);
    }
    arm(kr);
    return 0;
}

static int kr_stop(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    stop_clock(kr);
    kr->prepared = 0;
    timer_now(kr);  /* a stopped (SETUP) stream polls as an error, as on a card */
    return 0;
}

static snd_pcm_sframes_t kr_pointer(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    int err = check(kr);
    /* A negative return makes alsa-lib set XRUN, so a disconnected stream keeps its position. */
    if (err == -ENODEV) return (snd_pcm_sframes_t)kr->last_ptr;
    if (err < 0) return err;
    int64_t hw = hw_pos(kr);
    if (io->state == SND_PCM_STATE_DRAINING && io->stream == SND_PCM_STREAM_PLAYBACK) {
        int64_t appl = appl_pos(kr, hw);
        if (hw > appl) hw = appl;
    } else if (kr->running) {
        /*
         * The position moves a period at a time, as a card's does at its period interrupt. With
         * a frame-exact position, alsa-lib's ioplug read/write loop would never see avail 0 and
         * would spin, moving a few frames per turn, instead of waiting in poll.
         */
        hw -= hw % (int64_t)kr->period;
    }
    kr->last_ptr = (snd_pcm_uframes_t)((uint64_t)hw % (kr->boundary ? kr->boundary : LONG_MAX));
    return (snd_pcm_sframes_t)kr->last_ptr;
}

static snd_pcm_sframes_t kr_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                     snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    kr_t *kr = io->private_data;
    int err = check(kr);
    if (err < 0) return err;
    if (!size) return 0;
    int64_t hw = hw_pos(kr), appl = appl_pos(kr, hw);
    int64_t buffer = (int64_t)kr->buffer;
    if (io->stream == SND_PCM_STREAM_CAPTURE) {
        for (snd_pcm_uframes_t i = 0; i < size; i++) {
            int64_t p = appl + (int64_t)i;
            /* Past a buffer behind (stop_threshold above the buffer), the ring holds newer frames. */
            if (hw - p > buffer) p += (hw - 1 - p) / buffer * buffer;
            float v = p >= 0 ? air_get(kr, kr->start_frame + (uint64_t)p) : 0.0f;
            for (unsigned int c = 0; c < io->channels; c++) sample_out(io->format, sample_at(&areas[c], offset + i), v);
        }
    } else {
        for (snd_pcm_uframes_t i = 0; i < size; i++) {
            int64_t p = appl + (int64_t)i;
            float v = sample_in(io->format, sample_at(&areas[0], offset + i));
            if (kr->running) {
                if (p >= 0) air_put(kr, kr->start_frame + (uint64_t)p, v);
            } else if (p >= 0) {
                kr->pending[p % buffer] = v;
            }
        }
    }
    /* Poll follows the position after this transfer (alsa-lib moves appl_ptr afterwards). */
    if (kr->running) arm_after(kr, (int64_t)size);
    return (snd_pcm_sframes_t)size;
}

static int kr_prepare(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    if (unplugged(kr)) return -ENODEV;
    stop_clock(kr);
    kr->xrun = 0;
    kr->frozen_hw = 0;
    kr->last_ptr = 0;
    kr->prepared = 1;
    if (kr->pending) memset(kr->pending, 0, kr->buffer * sizeof *kr->pending);
    arm(kr);
    return 0;
}

static int kr_hw_params(snd_pcm_ioplug_t *io, snd_pcm_hw_params_t *params) {
    kr_t *kr = io->private_data;
    (void)params;
    if (unplugged(kr)) return -ENODEV;
    if (io->rate != kr->rate || io->channels < 1 || io->channels > 2) return -EINVAL;
    if (io->format != SND_PCM_FORMAT_S16_LE && io->format != SND_PCM_FORMAT_FLOAT_LE) return -EINVAL;
    if (!io->period_size || io->buffer_size < io->period_size || io->buffer_size > AIR_FRAMES / 2) return -EINVAL;
    float *pending = realloc(kr->pending, io->buffer_size * sizeof *pending);
    if (!pending) return -ENOMEM;
    memset(pending, 0, io->buffer_size * sizeof *pending);
    kr->pending = pending;
    stop_clock(kr);
    kr->prepared = 0;
    kr->period = io->period_size;
    kr->buffer = io->buffer_size;
    /* sw_params defaults, until alsa-lib passes the real ones */
    kr->avail_min = kr->period;
    kr->stop_threshold = kr->buffer;
    kr->boundary = kr->buffer;
    while (kr->boundary * 2 <= LONG_MAX - kr->buffer) kr->boundary *= 2;
    return 0;
}

static int kr_hw_free(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    stop_clock(kr);
    kr->prepared = 0;
    return 0;
}

static int kr_sw_params(snd_pcm_ioplug_t *io, snd_pcm_sw_params_t *params) {
    kr_t *kr = io->private_data;
    snd_pcm_uframes_t avail_min, stop_threshold, boundary;
    if (unplugged(kr)) return -ENODEV;
    if (snd_pcm_sw_params_get_avail_min(params, &avail_min) < 0 ||
        snd_pcm_sw_params_get_stop_threshold(params, &stop_threshold) < 0 ||
        snd_pcm_sw_params_get_boundary(params, &boundary) < 0 || !boundary)
        return -EINVAL;
    kr->avail_min = avail_min;
    kr->stop_threshold = stop_threshold;
    kr->boundary = boundary;
    if (kr->prepared) arm(kr);
    return 0;
}

/* Playback drains in real time: the buffered frames play out, then the stream stops. */
static int kr_drain(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    if (io->stream == SND_PCM_STREAM_CAPTURE) return 0;
    if (unplugged(kr)) return -ENODEV;
    if (!kr->running && !kr->xrun) {
        if (appl_pos(kr, kr->frozen_hw) <= kr->frozen_hw) return 0;
        kr_start(io);
    }
    for (;;) {
        if (unplugged(kr)) return -ENODEV;
        if (!kr->running) return 0;
        int64_t hw = hw_pos(kr), appl = appl_pos(kr, hw);
        if (hw >= appl) return 0;
        if (io->nonblock) return -EAGAIN;
        uint64_t until = kr->start_frame + (uint64_t)appl, soon = now_frame(kr) + kr->rate / 20;
        struct timespec when = frame_instant(kr, until < soon ? until : soon);  /* look for unplug now and then */
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL);
    }
}

static int kr_delay(snd_pcm_ioplug_t *io, snd_pcm_sframes_t *delayp) {
    kr_t *kr = io->private_data;
    int err = check(kr);
    if (err < 0) return err;
    int64_t hw = hw_pos(kr), appl = appl_pos(kr, hw);
    *delayp = (snd_pcm_sframes_t)(io->stream == SND_PCM_STREAM_CAPTURE ? hw - appl : appl - hw);
    return 0;
}

static int kr_poll_descriptors_count(snd_pcm_ioplug_t *io) {
    (void)io;
    return 1;
}

static int kr_poll_descriptors(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int space) {
    kr_t *kr = io->private_data;
    if (space < 1 || !pfd) return 0;
    check(kr);
    arm(kr);
    pfd->fd = kr->epoll_fd;
    pfd->events = POLLIN;
    pfd->revents = 0;
    return 1;
}

/* The descriptor says only "look"; the answer comes from the clock and the state, as a driver's. */
static int kr_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    kr_t *kr = io->private_data;
    char events[4096];
    (void)pfd;
    (void)nfds;
    while (read(kr->notify_fd, events, sizeof events) > 0) {}
    unsigned short ready = io->stream == SND_PCM_STREAM_CAPTURE ? POLLIN : POLLOUT;
    int err = check(kr);
    if (err < 0 || !kr->prepared) {
        timer_now(kr);
        *revents = ready | POLLERR;
        return 0;
    }
    *revents = arm(kr) ? ready : 0;
    return 0;
}

static int kr_close(snd_pcm_ioplug_t *io) {
    kr_t *kr = io->private_data;
    if (kr->air) {
        stop_clock(kr);
        munmap(kr->air, kr->air_size);
    }
    if (kr->epoll_fd >= 0) close(kr->epoll_fd);
    if (kr->timer_fd >= 0) close(kr->timer_fd);
    if (kr->notify_fd >= 0) close(kr->notify_fd);
    if (kr->air_fd >= 0) close(kr->air_fd);
    if (kr->lock_fd >= 0) close(kr->lock_fd);  /* releases the flock */
    free(kr->pending);
    free(kr->unplug_path);
    free(kr);
    return 0;
}

static const snd_pcm_ioplug_callback_t kr_callback = {
    .start = kr_start,
    .stop = kr_stop,
    .pointer = kr_pointer,
    .transfer = kr_transfer,
    .close = kr_close,
    .hw_params = kr_hw_params,
    .hw_free = kr_hw_free,
    .sw_params = kr_sw_params,
    .prepare = kr_prepare,
    .drain = kr_drain,
    .poll_descriptors_count = kr_poll_descriptors_count,
    .poll_descriptors = kr_poll_descriptors,
    .poll_revents = kr_poll_revents,
    .delay = kr_delay,
};

/* ---- open ---- */

static char *joined(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%s", a, b);
    return s;
}

/* Maps <state>.air, making it on first use; every opener of the device shares it. */
static int map_air(kr_t *kr, const char *state) {
    char *path = joined(state, ".air");
    if (!path) return -ENOMEM;
    kr->air_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(path);
    if (kr->air_fd < 0) return -errno;
    kr->air_size = sizeof(air_t) + (size_t)AIR_FRAMES * sizeof(air_slot_t);
    flock(kr->air_fd, LOCK_EX);  /* only while the file is made; openers race here */
    struct stat st;
    int err = 0;
    if (fstat(kr->air_fd, &st) < 0) err = -errno;
    else if ((size_t)st.st_size < kr->air_size && ftruncate(kr->air_fd, (off_t)kr->air_size) < 0) err = -errno;
    if (!err) {
        void *p = mmap(NULL, kr->air_size, PROT_READ | PROT_WRITE, MAP_SHARED, kr->air_fd, 0);
        if (p == MAP_FAILED) err = -errno;
        else kr->air = p;
    }
    if (!err) {
        if (kr->air->magic == 0) {
            kr->air->rate = kr->rate;
            kr->air->frames = AIR_FRAMES;
            __atomic_store_n(&kr->air->magic, AIR_MAGIC, __ATOMIC_RELEASE);
        } else if (kr->air->magic != AIR_MAGIC || kr->air->frames != AIR_FRAMES || kr->air->rate != kr->rate) {
            SNDERR("kernelrules: %s.air was made for another rate or version; remove it", state);
            err = -EINVAL;
        }
    }
    flock(kr->air_fd, LOCK_UN);
    return err;
}

/* Watches the state directory, so that a waiter wakes when <state>.unplugged appears. */
static int watch_unplug(kr_t *kr, const char *state) {
    const char *slash = strrchr(state, '/');
    char *dir = slash ? strndup(state, slash == state ? 1 : (size_t)(slash - state)) : strdup(".");
    if (!dir) return -ENOMEM;
    kr->notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    int err = kr->notify_fd < 0 ? -errno : 0;
    if (!err && inotify_add_watch(kr->notify_fd, dir, IN_CREATE | IN_MOVED_TO) < 0) err = -errno;
    free(dir);
    return err;
}

static int open_device(kr_t *kr, const char *state, const char *air, snd_pcm_stream_t stream) {
    int err;
    if (!(kr->unplug_path = joined(state, ".unplugged"))) return -ENOMEM;
    if ((err = watch_unplug(kr, state)) < 0) return err;
    if (access(kr->unplug_path, F_OK) == 0) return -ENODEV;
    char *lock = joined(state, stream == SND_PCM_STREAM_CAPTURE ? ".capture.lock" : ".playback.lock");
    if (!lock) return -ENOMEM;
    kr->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(lock);
    if (kr->lock_fd < 0) return -errno;
    if (flock(kr->lock_fd, LOCK_EX | LOCK_NB) < 0) return errno == EWOULDBLOCK ? -EBUSY : -errno;
    if ((err = map_air(kr, air)) < 0) return err;
    kr->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (kr->timer_fd < 0) return -errno;
    kr->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (kr->epoll_fd < 0) return -errno;
    struct epoll_event ev = { .events = EPOLLIN };
    ev.data.fd = kr->timer_fd;
    if (epoll_ctl(kr->epoll_fd, EPOLL_CTL_ADD, kr->timer_fd, &ev) < 0) return -errno;
    ev.data.fd = kr->notify_fd;
    if (epoll_ctl(kr->epoll_fd, EPOLL_CTL_ADD, kr->notify_fd, &ev) < 0) return -errno;
    return 0;
}

SND_PCM_PLUGIN_DEFINE_FUNC(kernelrules) {
    snd_config_iterator_t i, next;
    const char *state = NULL;
    const char *air = NULL, *playback_air = NULL, *capture_air = NULL;
    long rate = 48000;
    (void)root;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "state")) {
            if (snd_config_get_string(n, &state) < 0) return -EINVAL;
            continue;
        }
        if (!strcmp(id, "rate")) {
            if (snd_config_get_integer(n, &rate) < 0) return -EINVAL;
            continue;
        }
        if (!strcmp(id, "air") || !strcmp(id, "playback_air") || !strcmp(id, "capture_air")) {
            const char **field = !strcmp(id, "air") ? &air : !strcmp(id, "playback_air") ? &playback_air : &capture_air;
            if (snd_config_get_string(n, field) < 0) return -EINVAL;
            continue;
        }
        SNDERR("kernelrules: unknown field %s", id);
        return -EINVAL;
    }
    if (!state || !*state) {
        SNDERR("kernelrules: state is required");
        return -EINVAL;
    }
    if (rate < 1000 || rate > 768000) {
        SNDERR("kernelrules: rate %ld is out of range", rate);
        return -EINVAL;
    }
    kr_t *kr = calloc(1, sizeof *kr);
    if (!kr) return -ENOMEM;
    kr->rate = (unsigned int)rate;
    kr->lock_fd = kr->air_fd = kr->timer_fd = kr->notify_fd = kr->epoll_fd = -1;
    kr->io.private_data = kr;
    const char *mine = stream == SND_PCM_STREAM_CAPTURE ? capture_air : playback_air;
    if (!mine || !*mine) mine = air && *air ? air : state;
    int err = open_device(kr, state, mine, stream);
    if (err < 0) {
        kr_close(&kr->io);
        return err;
    }
    kr->io.version = SND_PCM_IOPLUG_VERSION;
    kr->io.name = "kernelrules: a loopback card with the kernel's rules";
    kr->io.callback = &kr_callback;
    kr->io.poll_fd = kr->epoll_fd;
    kr->io.poll_events = POLLIN;
    kr->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA | SND_PCM_IOPLUG_FLAG_MONOTONIC;
    kr->io.mmap_rw = 0;
    err = snd_pcm_ioplug_create(&kr->io, name, stream, mode);
    if (err < 0) {
        kr_close(&kr->io);
        return err;
    }
    static const unsigned int accesses[] = {
        SND_PCM_ACCESS_RW_INTERLEAVED, SND_PCM_ACCESS_RW_NONINTERLEAVED,
        SND_PCM_ACCESS_MMAP_INTERLEAVED, SND_PCM_ACCESS_MMAP_NONINTERLEAVED,
    };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_FLOAT_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&kr->io, SND_PCM_IOPLUG_HW_ACCESS, 4, accesses)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&kr->io, SND_PCM_IOPLUG_HW_FORMAT, 2, formats)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&kr->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 2)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&kr->io, SND_PCM_IOPLUG_HW_RATE, kr->rate, kr->rate)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&kr->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, PERIOD_BYTES_MIN, PERIOD_BYTES_MAX)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&kr->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&kr->io, SND_PCM_IOPLUG_HW_BUFFER_BYTES, 2 * PERIOD_BYTES_MIN, BUFFER_BYTES_MAX)) < 0) {
        snd_pcm_ioplug_delete(&kr->io);  /* calls kr_close */
        return err;
    }
    *pcmp = kr->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(kernelrules);
