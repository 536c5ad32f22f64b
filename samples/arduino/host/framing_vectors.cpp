// Host harness for the board-side framing code: reads one command per line on stdin,
// prints one result line on stdout. The Swift test suite generates the commands, runs this
// program and compares every line with what ModemFraming computes.
//
//   crc16 HEX | crc32 HEX | cobs HEX | cobsdec HEX | slip HEX
//   motor STEER ACCEL HEAD BRAKE      -> 4 bytes hex
//   motordec HEX                      -> "steer accel head brake" or "invalid"
//   motorstream HEX                   -> decoded packets "s,a,h,b;..." then "|discarded"
//   pinstream HEX                     -> "pin,state;..." then "|discarded"
//   accessory COUNTER COMMAND HEX     -> frame hex
//   accstream HEX                     -> "counter,command,payload,lost;..." then "|discarded"
//   xbeeapi API ESCAPED HEX           -> frame hex
//   link KIND SEQ HEX                 -> wire bytes hex
//   linkrx HEX                        -> "payload[+];..." then "|hello hex or -|ack hex|damaged,duplicates"
#include "modem_framing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t parse_hex(const char *s, uint8_t *out) {
    size_t n = 0;
    if (strcmp(s, "-") == 0) return 0;
    while (s[0] && s[1]) {
        char b[3] = {s[0], s[1], 0};
        out[n++] = (uint8_t)strtoul(b, 0, 16);
        s += 2;
    }
    return n;
}

static void print_hex(const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
}

int main() {
    static char line[65536];
    static uint8_t in[16384], out[40000];
    while (fgets(line, sizeof line, stdin)) {
        char cmd[32] = {0}, a[32] = {0}, b[32] = {0}, c[32] = {0};
        static char hex[65536];
        hex[0] = 0;
        int fields = sscanf(line, "%31s", cmd);
        if (fields != 1) continue;
        if (!strcmp(cmd, "crc16") || !strcmp(cmd, "crc32") || !strcmp(cmd, "cobs") || !strcmp(cmd, "cobsdec") || !strcmp(cmd, "slip") ||
            !strcmp(cmd, "motordec") || !strcmp(cmd, "motorstream") || !strcmp(cmd, "pinstream") || !strcmp(cmd, "accstream") || !strcmp(cmd, "linkrx")) {
            sscanf(line, "%*s %65535s", hex);
            size_t n = parse_hex(hex, in);
            if (!strcmp(cmd, "crc16")) printf("%04x", crc16_ccitt_false(in, n));
            else if (!strcmp(cmd, "crc32")) printf("%08lx", (unsigned long)crc32_update(0, in, n));
            else if (!strcmp(cmd, "cobs")) print_hex(out, cobs_encode(in, n, out));
            else if (!strcmp(cmd, "cobsdec")) {
                int r = cobs_decode(in, n, out, sizeof out);
                if (r < 0) printf("invalid"); else print_hex(out, (size_t)r);
            } else if (!strcmp(cmd, "slip")) print_hex(out, slip_encode(in, n, out));
            else if (!strcmp(cmd, "motordec")) {
                MotorCommand m;
                if (n == 4 && motor_decode(in, &m)) printf("%d %d %d %d", m.steering, m.acceleration, m.headlights, m.brakeLights);
                else printf("invalid");
            } else if (!strcmp(cmd, "motorstream")) {
                MotorParser p;
                MotorCommand m;
                for (size_t i = 0; i < n; i++) if (p.push(in[i], &m)) printf("%d,%d,%d,%d;", m.steering, m.acceleration, m.headlights, m.brakeLights);
                printf("|%lu", p.discarded);
            } else if (!strcmp(cmd, "pinstream")) {
                PinParser p;
                uint8_t pin, state;
                for (size_t i = 0; i < n; i++) if (p.push(in[i], &pin, &state)) printf("%u,%u;", pin, state);
                printf("|%lu", p.discarded);
            } else if (!strcmp(cmd, "accstream")) {
                AccessoryParser p;
                for (size_t i = 0; i < n; i++) {
                    if (p.push(in[i])) {
                        printf("%u,%u,", p.counter, p.command);
                        print_hex(p.payload, p.length);
                        printf(",%u;", p.lostBefore);
                    }
                }
                printf("|%lu", p.discarded);
            } else {
                LinkReceiver r;
                for (size_t i = 0; i < n; i++) {
                    for (bool got = r.push(in[i]); got; got = r.pull()) {
                        print_hex(r.payload, r.length);
                        printf("%s;", r.endOfMessage ? "+" : "");
                    }
                }
                printf("|");
                if (r.helloPending) print_hex(out, r.hello(out)); else printf("-");
                printf("|");
                print_hex(out, r.ack(out));
                printf("|%lu,%lu", r.damaged, r.duplicates);
            }
        } else if (!strcmp(cmd, "motor")) {
            sscanf(line, "%*s %31s %31s %31s %31s", a, b, c, hex);
            MotorCommand m = {atoi(a), atoi(b), atoi(c) != 0, atoi(hex) != 0};
            motor_encode(m, out);
            print_hex(out, 4);
        } else if (!strcmp(cmd, "accessory")) {
            sscanf(line, "%*s %31s %31s %65535s", a, b, hex);
            size_t n = parse_hex(hex, in);
            print_hex(out, accessory_encode((uint8_t)atoi(a), (uint8_t)atoi(b), in, (uint8_t)n, out));
        } else if (!strcmp(cmd, "xbeeapi")) {
            sscanf(line, "%*s %31s %31s %65535s", a, b, hex);
            size_t n = parse_hex(hex, in);
            print_hex(out, xbee_api_encode((uint8_t)atoi(a), in, n, atoi(b) != 0, out));
        } else if (!strcmp(cmd, "link")) {
            sscanf(line, "%*s %31s %31s %65535s", a, b, hex);
            size_t n = parse_hex(hex, in);
            print_hex(out, link_encode((uint8_t)atoi(a), (uint16_t)atoi(b), in, (uint8_t)n, out));
        } else {
            printf("unknown");
        }
        printf("\n");
    }
    return 0;
}
