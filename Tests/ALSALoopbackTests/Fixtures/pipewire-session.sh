#!/usr/bin/env bash
# A private, headless PipeWire session for the live (ALSA loopback) tests: the PipeWire
# counterpart of PulseServer.swift.
#
#   pipewire-session.sh start DIR [RATE]
#       Starts a session bus, pipewire, wireplumber and pipewire-pulse whose every file
#       (sockets, config, state, logs, pids) lives under DIR (created if missing). The graph
#       runs at RATE Hz (44100 unless given) and has one mono null sink, "loopback", at RATE:
#       the default sink, with its monitor as the default source, so what is played to the
#       default sink is captured from the default source. Waits (at most 15 s) until all is
#       ready, then prints on stdout, one KEY=VALUE a line, the environment a child process
#       needs to reach this session through the ALSA devices `pipewire`, `default` (both the
#       pipewire-alsa plugin) and `pulse` (libasound2-plugins, through pipewire-pulse), and
#       exits 0 leaving the daemons running. On failure: one line on stderr saying why, what
#       was started is stopped, exit status non-zero (2: usage, 3: missing program or
#       plugin, 4: a daemon did not start or get ready in time).
#   pipewire-session.sh stop DIR
#       Stops what `start` started for DIR (pids recorded in DIR/pids), within a few seconds;
#       doing it again, or on a DIR where nothing runs, is fine. DIR itself is left in place
#       (its logs may tell why a test failed); the caller removes it.
#       With SOFTMODEM_PIPEWIRE_WATCH_PID=PID in the environment, a watcher (recorded with
#       the daemons) stops the session by itself once process PID is gone: pass the test
#       runner's pid so that a runner that dies without calling stop leaves nothing behind.
#   pipewire-session.sh env DIR
#       Prints the environment lines of a running session again.
#   pipewire-session.sh fetch-alsa-plugin [CACHE_DIR]
#       Makes sure the pipewire-alsa plugin is unpacked under CACHE_DIR and prints its root.
#       `start` does this by itself.
#
# The pipewire-alsa plugin: Debian 12's pipewire-alsa package conflicts with pulseaudio,
# which the other live tests need, so it is never installed. `apt-get download pipewire-alsa`
# fetches its .deb (the version of the installed libpipewire) into CACHE_DIR (default:
# .build/pipewire-alsa of this repository, or $SOFTMODEM_PIPEWIRE_ALSA_CACHE), `dpkg-deb -x`
# unpacks it to CACHE_DIR/root-VERSION (done once per version, then reused), and
# each session gets a private ALSA configuration, DIR/alsa/alsa.conf (exported as
# ALSA_CONFIG_PATH): /usr/share/alsa/alsa.conf whose first @hooks loads, instead of the
# system's conf.d directories, only
#   - /usr/share/alsa/alsa.conf.d/50-pulseaudio.conf (pcm.pulse and ctl.pulse), and
#   - DIR/alsa/pipewire.conf: pcm_type.pipewire and ctl_type.pipewire naming the plugin's
#     libraries in the cache by absolute path, then the package's 50-pipewire.conf and
#     99-pipewire-default.conf (pcm.!default and ctl.!default through PipeWire), and
#   - the session HOME's ~/.asoundrc, if any (tests add devices of their own there).
# The system's 99-pulse.conf is left out on purpose: it turns `default` into `pulse` whenever
# a pulse server answers, and pipewire-pulse would. Where pipewire-alsa is installed (a
# machine without pulseaudio), its files are used instead and nothing is downloaded.
#
# Needs (Debian 12): pipewire pipewire-bin wireplumber pipewire-pulse dbus-daemon (or dbus),
# libasound2-plugins for `pulse`; pactl (pulseaudio-utils), when present, checks that
# pipewire-pulse answers. WirePlumber 0.4 exits at once without a session bus, hence the
# private dbus-daemon. Real-time scheduling is not needed: without rtkit and
# RLIMIT_RTPRIO the daemons warn (in DIR/logs) and run at normal priority.

set -u
shopt -s nullglob

prog=${0##*/}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$here/../../.." && pwd)
default_cache=${SOFTMODEM_PIPEWIRE_ALSA_CACHE:-$repo_root/.build/pipewire-alsa}
ready_timeout=${SOFTMODEM_PIPEWIRE_TIMEOUT:-15}   # seconds, for the whole start
# Start order; stop goes in reverse. The watcher runs only with SOFTMODEM_PIPEWIRE_WATCH_PID.
daemons=(dbus-daemon pipewire wireplumber pipewire-pulse watcher)

die() {  # die STATUS MESSAGE: one line on stderr
    local status=$1
    shift
    printf '%s: %s\n' "$prog" "$*" >&2
    exit "$status"
}

usage() {
    cat >&2 <<EOF
usage: $prog start DIR [RATE]
       $prog stop DIR
       $prog env DIR
       $prog fetch-alsa-plugin [CACHE_DIR]
EOF
    exit 2
}

now_ms() { date +%s%3N; }

# --- the pipewire-alsa plugin ------------------------------------------------------------

# fetch_alsa_plugin CACHE: unpacks pipewire-alsa under CACHE (once per version) and prints
# the root of the unpacked tree. Prints nothing and fails when it cannot. Safe to run
# concurrently (the tree appears by an atomic rename).
fetch_alsa_plugin() {
    local cache=$1
    # The plugin must match the installed libpipewire (pipewire-alsa depends on
    # "libpipewire-0.3-0 (= version)"): ask for that version, else take the candidate.
    local version
    version=$(dpkg-query -W -f='${Version}' libpipewire-0.3-0 2>/dev/null) || version=
    local root=$cache/root-${version:-any}
    root=${root//:/_}
    if [[ -f $root/.complete ]]; then
        printf '%s\n' "$root"
        return 0
    fi
    mkdir -p "$cache" || return 1
    local work
    work=$(mktemp -d "$cache/.fetch.XXXXXX") || return 1
    local debs=("$cache"/pipewire-alsa_"${version//:/%3a}"_*.deb)  # nullglob
    local deb=${debs[0]:-}
    if [[ -z $deb ]]; then
        # As root, into a directory that _apt cannot write, apt-get only warns.
        (cd "$work" && { { [[ -n $version ]] && apt-get download -q "pipewire-alsa=$version"; } ||
            apt-get download -q pipewire-alsa; }) >"$work/download.log" 2>&1
        debs=("$work"/pipewire-alsa_*.deb)
        deb=${debs[0]:-}
        if [[ -z $deb && $(id -u) -eq 0 ]]; then
            # A new machine may have no package lists yet: read them once and try again.
            (apt-get update -qq && cd "$work" && apt-get download -q pipewire-alsa) >>"$work/download.log" 2>&1
            debs=("$work"/pipewire-alsa_*.deb)
            deb=${debs[0]:-}
        fi
        if [[ -n $deb ]]; then
            mv -f "$deb" "$cache/" && deb=$cache/${deb##*/}
        fi
    fi
    if [[ -z $deb ]] || ! dpkg-deb -x "$deb" "$work/root" 2>"$work/unpack.log"; then
        rm -rf "$work"
        return 1
    fi
    touch "$work/root/.complete"
    if ! mv -T "$work/root" "$root" 2>/dev/null; then
        [[ -f $root/.complete ]] || { rm -rf "$work"; return 1; }  # lost a race: use theirs
    fi
    rm -rf "$work"
    printf '%s\n' "$root"
}

# alsa_plugin_root: the installed pipewire-alsa (/) if there is one, else the unpacked one.
alsa_plugin_root() {
    if dpkg-query -W -f='${db:Status-Status}' pipewire-alsa 2>/dev/null | grep -qx installed; then
        echo /
    else
        fetch_alsa_plugin "$default_cache"
    fi
}

# write_alsa_config DIR PLUGIN_ROOT: writes DIR/alsa/{pipewire.conf,alsa.conf}.
# PLUGIN_ROOT is an unpacked pipewire-alsa, or / for the installed one.
write_alsa_config() {
    local dir=$1 root=$2
    local confd=$root/usr/share/alsa/alsa.conf.d
    local libs=("${root%/}"/usr/lib/*/alsa-lib "${root%/}"/usr/lib/alsa-lib)
    local lib pcm_lib='' ctl_lib=''
    for lib in "${libs[@]}"; do
        if [[ -f $lib/libasound_module_pcm_pipewire.so && -f $lib/libasound_module_ctl_pipewire.so ]]; then
            pcm_lib=$lib/libasound_module_pcm_pipewire.so
            ctl_lib=$lib/libasound_module_ctl_pipewire.so
            break
        fi
    done
    [[ -f $confd/50-pipewire.conf && -f $confd/99-pipewire-default.conf && -n $pcm_lib ]] || return 1
    mkdir -p "$dir/alsa" || return 1
    {
        echo "# Written by $prog: the pipewire-alsa plugin from $root"
        echo "pcm_type.pipewire { lib \"$pcm_lib\" }"
        echo "ctl_type.pipewire { lib \"$ctl_lib\" }"
        cat "$confd/50-pipewire.conf"
        echo
        cat "$confd/99-pipewire-default.conf"
        echo
    } >"$dir/alsa/pipewire.conf" || return 1
    local pulse_conf=/usr/share/alsa/alsa.conf.d/50-pulseaudio.conf
    # alsa.conf with its first @hooks block (the conf.d and asoundrc loader) replaced.
    awk -v pulse="$pulse_conf" -v pipewire="$dir/alsa/pipewire.conf" '
        !done && /^@hooks \[/ { skipping = 1
            print "# Private configuration: only these files (and the session HOME'"'"'s .asoundrc, where"
            print "# a test adds devices of its own), not the system conf.d"
            print "@hooks ["
            print "\t{"
            print "\t\tfunc load"
            print "\t\tfiles ["
            print "\t\t\t\"" pulse "\""
            print "\t\t\t\"" pipewire "\""
            print "\t\t\t\"~/.asoundrc\""
            print "\t\t]"
            print "\t\terrors false"
            print "\t}"
            print "]"
            next }
        skipping { if (/^\]/) { skipping = 0; done = 1 } next }
        { print }
        END { if (!done) exit 1 }
    ' /usr/share/alsa/alsa.conf >"$dir/alsa/alsa.conf" || return 1
}

# --- the session -------------------------------------------------------------------------

# Paths of a session in DIR (absolute).
set_paths() {
    dir=$1
    runtime=$dir/runtime
    pulse_runtime=$runtime/pulse
    logs=$dir/logs
    pids=$dir/pids
    bus_socket=$runtime/bus
    pw_socket=$runtime/pipewire-0
    pulse_socket=$pulse_runtime/native
    set_daemon_env
}

# The environment of the daemons (and of the tools that query them): nothing of the
# caller's sessions leaks in. An array, so that `env "${daemon_env[@]}" CMD &` runs CMD in
# the very process whose pid $! gives.
set_daemon_env() {
    daemon_env=(env
        -u DISPLAY -u WAYLAND_DISPLAY -u PULSE_SERVER -u PULSE_SINK -u PULSE_SOURCE
        -u PIPEWIRE_REMOTE -u PIPEWIRE_CONFIG_DIR -u PIPEWIRE_CONFIG_NAME -u PIPEWIRE_DEBUG
        -u PIPEWIRE_NODE -u PIPEWIRE_PROPS -u WIREPLUMBER_CONFIG_DIR -u WIREPLUMBER_DATA_DIR
        -u JOURNAL_STREAM -u NOTIFY_SOCKET -u ALSA_CONFIG_PATH -u DBUS_SYSTEM_BUS_ADDRESS
        HOME="$dir/home"
        XDG_RUNTIME_DIR="$runtime"
        PIPEWIRE_RUNTIME_DIR="$runtime"
        PULSE_RUNTIME_PATH="$pulse_runtime"
        PULSE_STATE_PATH="$dir/state/pulse"
        PULSE_COOKIE="$dir/home/pulse-cookie"
        XDG_CONFIG_HOME="$dir/config"
        XDG_STATE_HOME="$dir/state"
        XDG_DATA_HOME="$dir/data"
        XDG_CACHE_HOME="$dir/cache"
        DBUS_SESSION_BUS_ADDRESS="unix:path=$bus_socket"
        SOFTMODEM_PIPEWIRE_SESSION="$dir")
}

# The lines printed for clients.
print_env() {
    cat <<EOF
ALSA_CONFIG_PATH=$dir/alsa/alsa.conf
XDG_RUNTIME_DIR=$runtime
PIPEWIRE_RUNTIME_DIR=$runtime
PIPEWIRE_REMOTE=pipewire-0
PULSE_SERVER=unix:$pulse_socket
PULSE_RUNTIME_PATH=$pulse_runtime
PULSE_COOKIE=$dir/home/pulse-cookie
HOME=$dir/home
XDG_CONFIG_HOME=$dir/config
EOF
}

# is_ours PID: the process runs and was started for this DIR (guards against pid reuse).
is_ours() {
    local pid=$1
    [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/environ ]] || return 1
    { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qxF "SOFTMODEM_PIPEWIRE_SESSION=$dir"
}

# spawn NAME COMMAND...: starts a daemon in its own session, stdio to DIR/logs/NAME.log.
spawn() {
    local name=$1
    shift
    (
        # No descriptor of the caller's (a test runner's pipe) may outlive this script.
        for fd in /proc/self/fd/*; do
            fd=${fd##*/}
            ((fd > 2)) && eval "exec $fd>&-"
        done
        exec "${daemon_env[@]}" setsid "$@"
    ) </dev/null >>"$logs/$name.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$pids/$name.pid"
    # Until the forked shell has exec'd env, /proc/PID/environ lacks the session marker.
    while ! is_ours "$pid" && kill -0 "$pid" 2>/dev/null && (($(now_ms) < deadline_ms)); do
        sleep 0.01
    done
}

alive() {  # alive NAME
    local pid
    pid=$(cat "$pids/$1.pid" 2>/dev/null) && is_ours "$pid"
}

last_log_line() {  # the last non-empty line of a daemon's log, for error messages
    local line
    line=$(grep -v '^[[:space:]]*$' "$logs/$1.log" 2>/dev/null | tail -n 1)
    printf '%s' "${line:-no log}"
}

deadline_ms=0
# wait_for NAME WHAT COMMAND...: polls COMMAND until it succeeds; fails (4) when NAME died or
# the start deadline passed.
wait_for() {
    local name=$1 what=$2
    shift 2
    while :; do
        "$@" >/dev/null 2>&1 && return 0
        alive "$name" || fail 4 "$name exited before $what ($(last_log_line "$name"))"
        (($(now_ms) < deadline_ms)) || fail 4 "timed out after ${ready_timeout}s waiting for $what ($name: $(last_log_line "$name"))"
        sleep 0.05
    done
}

fail() {  # fail STATUS MESSAGE: stops what was started, then dies
    local status=$1
    shift
    stop_session >/dev/null 2>&1
    die "$status" "$*"
}

stop_session() {
    local i name pid
    local -a live=()
    for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
        name=${daemons[i]}
        pid=$(cat "$pids/$name.pid" 2>/dev/null) || continue
        if [[ $pid != "$$" ]] && is_ours "$pid"; then  # $$: the watcher stopping the session
            # Each runs in a session (and process group) of its own: the group takes along
            # whatever it forked (the watcher's sleep).
            kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
            live+=("$pid")
        fi
    done
    # Bounded: 3 s for a clean exit, then SIGKILL and 1 s more.
    local -a signalled=("${live[@]+"${live[@]}"}")
    local end=$(($(now_ms) + 3000)) killed=0
    while ((${#live[@]})); do
        local -a still=()
        for pid in "${live[@]}"; do
            is_ours "$pid" && still+=("$pid")  # a zombie's environ is empty: not ours any more
        done
        live=("${still[@]+"${still[@]}"}")
        ((${#live[@]})) || break
        if (($(now_ms) >= end)); then
            ((killed)) && break
            for pid in "${live[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null; done
            killed=1
            end=$(($(now_ms) + 1000))
        fi
        sleep 0.05
    done
    # They were reparented to init (or the nearest subreaper) when `start` exited: give it up
    # to 2 s to reap the zombies, so that no <defunct> entry outlives `stop`.
    end=$(($(now_ms) + 2000))
    for pid in "${signalled[@]+"${signalled[@]}"}"; do
        while [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) == Z ]] && (($(now_ms) < end)); do
            sleep 0.05
        done
    done
    for name in "${daemons[@]}"; do rm -f "$pids/$name.pid"; done
    # Sockets a killed daemon could not remove: a later start must not mistake them for live.
    rm -f "$bus_socket" "$pw_socket" "$pw_socket.lock" "$runtime/pipewire-0-manager" \
        "$runtime/pipewire-0-manager.lock" "$pulse_socket" "$pulse_runtime/pid"
    ((${#live[@]} == 0))
}

write_configs() {
    local rate=$1
    mkdir -p "$dir/home" "$dir/config/pipewire/pipewire.conf.d" "$dir/config/wireplumber/main.lua.d" \
        "$dir/config/wireplumber/bluetooth.lua.d" "$dir/state" "$dir/data" "$dir/cache" \
        "$runtime" "$pulse_runtime" "$logs" "$pids" || return 1
    chmod 700 "$runtime" "$pulse_runtime" || return 1

    cat >"$dir/dbus.conf" <<EOF || return 1
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<!-- A private session bus for one test session: no service activation, no includes of the
     system's session.d, anyone with access to the socket (mode 0700 dir) may do anything. -->
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:path=$bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
EOF

    cat >"$dir/config/pipewire/pipewire.conf.d/50-softmodem.conf" <<EOF || return 1
# Written by $prog: the graph runs at $rate Hz only, with one mono null sink at $rate Hz.
context.properties = {
    default.clock.rate          = $rate
    default.clock.allowed-rates = [ $rate ]
}
context.objects = [
    { factory = adapter
        args = {
            factory.name     = support.null-audio-sink
            node.name        = "loopback"
            node.description = "softmodem loopback (null sink)"
            media.class      = "Audio/Sink"
            audio.rate       = $rate
            audio.channels   = 1
            audio.position   = [ MONO ]
            monitor.channel-volumes = true
            node.pause-on-idle = false
        }
    }
]
EOF

    # WirePlumber: no hardware, camera or bluetooth monitors. 89: after the 50-*-config.lua
    # files that set these tables, before 90-enable-all.lua that reads them.
    cat >"$dir/config/wireplumber/main.lua.d/89-softmodem.lua" <<'EOF' || return 1
-- Written by pipewire-session.sh: a headless session with only a null sink.
alsa_monitor.enabled = false
v4l2_monitor.enabled = false
libcamera_monitor.enabled = false
EOF
    cat >"$dir/config/wireplumber/bluetooth.lua.d/89-softmodem.lua" <<'EOF' || return 1
-- Written by pipewire-session.sh: no bluetooth (it needs the system bus).
bluez_monitor.enabled = false
EOF
}

# metadata_ready: WirePlumber made the null sink the default sink and its monitor the
# default source.
metadata_ready() {
    local md
    md=$("${daemon_env[@]}" pw-metadata -n default 0 2>/dev/null) || return 1
    grep -q "key:'default.audio.sink' value:'{\"name\":\"loopback\"}'" <<<"$md" &&
        grep -q "key:'default.audio.source' value:'{\"name\":\"loopback\"}'" <<<"$md"
}

start_session() {
    local rate=$1
    case $rate in
    '' | *[!0-9]*) die 2 "RATE must be a positive integer in Hz, not '$rate'" ;;
    esac
    ((rate >= 8000 && rate <= 384000)) || die 2 "RATE $rate is out of range (8000..384000)"
    local watched=${SOFTMODEM_PIPEWIRE_WATCH_PID:-}
    if [[ -n $watched ]] && ! { [[ $watched =~ ^[0-9]+$ ]] && kill -0 "$watched" 2>/dev/null; }; then
        die 2 "SOFTMODEM_PIPEWIRE_WATCH_PID=$watched is not a running process"
    fi
    local start_ms
    start_ms=$(now_ms)
    deadline_ms=$((start_ms + ready_timeout * 1000))

    local p
    for p in dbus-daemon pipewire wireplumber pipewire-pulse pw-metadata setsid; do
        command -v "$p" >/dev/null 2>&1 ||
            die 3 "$p is not installed (apt-get install --no-install-recommends pipewire pipewire-bin wireplumber pipewire-pulse dbus-daemon)"
    done
    # PULSE_SERVER is split at white space and D-Bus addresses escape most punctuation:
    # keep DIR plain.
    [[ $dir =~ ^[][A-Za-z0-9_./+@-]+$ ]] || die 2 "DIR may hold only letters, digits and _ . / + @ - ('$dir')"
    mkdir -p "$dir" || die 2 "cannot create $dir"
    dir=$(cd "$dir" && pwd -P) || die 2 "cannot enter $dir"
    set_paths "$dir"
    ((${#pulse_socket} < 108)) || die 2 "DIR is too long for a unix socket path ($pulse_socket)"
    local pid
    for p in "${daemons[@]}"; do
        if pid=$(cat "$pids/$p.pid" 2>/dev/null) && is_ours "$pid"; then
            die 4 "a session already runs in $dir ($p pid $pid): stop it first"
        fi
    done

    local plugin_root
    plugin_root=$(alsa_plugin_root) || plugin_root=
    [[ -n $plugin_root ]] ||
        die 3 "cannot get the pipewire-alsa plugin (apt-get download pipewire-alsa into $default_cache failed)"
    write_configs "$rate" || die 2 "cannot write the configuration under $dir"
    write_alsa_config "$dir" "$plugin_root" || die 3 "cannot write the ALSA configuration from $plugin_root"
    stop_session >/dev/null 2>&1  # stale sockets of a session that was killed

    spawn dbus-daemon dbus-daemon --nofork --nopidfile --config-file="$dir/dbus.conf"
    wait_for dbus-daemon "the session bus" test -S "$bus_socket"

    spawn pipewire pipewire
    wait_for pipewire "the pipewire socket" test -S "$pw_socket"

    spawn wireplumber wireplumber
    spawn pipewire-pulse pipewire-pulse
    wait_for wireplumber "the default sink and source" metadata_ready
    wait_for pipewire-pulse "the pulse socket" test -S "$pulse_socket"
    if command -v pactl >/dev/null 2>&1; then
        wait_for pipewire-pulse "pipewire-pulse to answer" "${daemon_env[@]}" pactl --server="unix:$pulse_socket" info
    fi
    if [[ -n $watched ]]; then
        # Stops the session once that process is gone (a test runner that died without
        # calling stop): the counterpart of PulseServer's --exit-idle-time.
        # shellcheck disable=SC2016  # expanded by the watcher's bash, from its arguments
        spawn watcher bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec "$2" stop "$3"' \
            watcher "$watched" "$here/$prog" "$dir"
    fi
    echo "started in $(($(now_ms) - start_ms)) ms, rate $rate" >>"$logs/session.log"
    print_env
}

# --- main --------------------------------------------------------------------------------

(($# >= 1)) || usage
case $1 in
start)
    (($# == 2 || $# == 3)) || usage
    set_paths "$2"
    start_session "${3:-44100}"
    ;;
stop)
    (($# == 2)) || usage
    [[ -d $2 ]] || exit 0
    set_paths "$(cd "$2" && pwd -P)"
    stop_session || die 4 "some daemons of $dir did not exit"
    ;;
env)
    (($# == 2)) || usage
    [[ -d $2 ]] || die 2 "no session in $2"
    set_paths "$(cd "$2" && pwd -P)"
    alive pipewire || die 4 "no session runs in $dir"
    print_env
    ;;
fetch-alsa-plugin)
    (($# <= 2)) || usage
    fetch_alsa_plugin "${2:-$default_cache}" || die 3 "cannot download or unpack pipewire-alsa into ${2:-$default_cache}"
    ;;
*) usage ;;
esac
