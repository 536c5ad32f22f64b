/*
 * An ALSA PCM plugin that makes any device exclusive, as a hardware (hw:) device is: the
 * first process to open it holds it, and every other open fails with -EBUSY until the
 * holder closes it. The loopback tests use it to produce a real "device busy" error with no
 * sound card (the sound server's own devices are shared and never busy).
 *
 * It is an extplug that passes audio through to its slave unchanged. Exclusivity is an
 * flock(2) on a lock file named in the configuration, one per direction (a card's capture
 * and playback devices are separate, so `term` can hold both):
 *
 *   pcm_type.exclusive { lib "/path/to/libasound_module_pcm_exclusive.so" }
 *   pcm.exclusivetest { type exclusive  slave.pcm "pulse"  lockfile "/tmp/dir/exclusivetest" }
 *
 * Built by the test with: cc -shared -fPIC -o libasound_module_pcm_exclusive.so exclusive_pcm.c -lasound
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

typedef struct {
    snd_pcm_extplug_t ext;
    int lock;
} exclusive_t;

static snd_pcm_sframes_t exclusive_transfer(snd_pcm_extplug_t *ext,
                                            const snd_pcm_channel_area_t *dst, snd_pcm_uframes_t dst_offset,
                                            const snd_pcm_channel_area_t *src, snd_pcm_uframes_t src_offset,
                                            snd_pcm_uframes_t size) {
    snd_pcm_areas_copy(dst, dst_offset, src, src_offset, ext->channels, size, ext->format);
    return (snd_pcm_sframes_t)size;
}

static int exclusive_close(snd_pcm_extplug_t *ext) {
    exclusive_t *e = ext->private_data;
    if (e->lock >= 0) close(e->lock);  /* releases the flock */
    free(e);
    return 0;
}

static const snd_pcm_extplug_callback_t exclusive_callback = {
    .transfer = exclusive_transfer,
    .close = exclusive_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(exclusive) {
    snd_config_iterator_t i, next;
    snd_config_t *slave = NULL;
    const char *lockfile = NULL;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "slave")) { slave = n; continue; }
        if (!strcmp(id, "lockfile")) {
            if (snd_config_get_string(n, &lockfile) < 0) return -EINVAL;
            continue;
        }
        SNDERR("exclusive: unknown field %s", id);
        return -EINVAL;
    }
    if (!slave || !lockfile) {
        SNDERR("exclusive: slave and lockfile are required");
        return -EINVAL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", lockfile, stream == SND_PCM_STREAM_CAPTURE ? "capture" : "playback");
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -errno;
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        close(fd);
        return -EBUSY;
    }
    exclusive_t *e = calloc(1, sizeof *e);
    if (!e) { close(fd); return -ENOMEM; }
    e->lock = fd;
    e->ext.version = SND_PCM_EXTPLUG_VERSION;
    e->ext.name = "exclusive access test plugin";
    e->ext.callback = &exclusive_callback;
    e->ext.private_data = e;
    int err = snd_pcm_extplug_create(&e->ext, name, root, slave, stream, mode);
    if (err < 0) {
        close(fd);
        free(e);
        return err;
    }
    /* Audio passes through untouched: client and slave share format and channel count. */
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_FLOAT_LE };
    snd_pcm_extplug_set_param_list(&e->ext, SND_PCM_EXTPLUG_HW_FORMAT, 3, formats);
    snd_pcm_extplug_set_slave_param_list(&e->ext, SND_PCM_EXTPLUG_HW_FORMAT, 3, formats);
    snd_pcm_extplug_set_param_minmax(&e->ext, SND_PCM_EXTPLUG_HW_CHANNELS, 1, 8);
    snd_pcm_extplug_set_slave_param_minmax(&e->ext, SND_PCM_EXTPLUG_HW_CHANNELS, 1, 8);
    snd_pcm_extplug_set_param_link(&e->ext, SND_PCM_EXTPLUG_HW_FORMAT, 1);
    snd_pcm_extplug_set_param_link(&e->ext, SND_PCM_EXTPLUG_HW_CHANNELS, 1);
    *pcmp = e->ext.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(exclusive);
