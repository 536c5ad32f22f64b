#include "modem_framing.h"

#include <string.h>

uint16_t crc16_ccitt_false(const uint8_t *data, size_t length) {
    uint16_t crc = 0xFFFF;
    for (size_t i = 0; i < length; i++) {
        crc ^= (uint16_t)data[i] << 8;
        for (uint8_t b = 0; b < 8; b++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint32_t crc32_update(uint32_t crc, const uint8_t *data, size_t length) {
    crc = ~crc;
    for (size_t i = 0; i < length; i++) {
        crc ^= data[i];
        for (uint8_t b = 0; b < 8; b++) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320UL : crc >> 1;
    }
    return ~crc;
}

size_t cobs_encode(const uint8_t *in, size_t length, uint8_t *out) {
    size_t codeIndex = 0, o = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < length; i++) {
        if (in[i] == 0) {
            out[codeIndex] = code;
            codeIndex = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            code++;
            if (code == 0xFF && i + 1 < length) {
                out[codeIndex] = code;
                codeIndex = o++;
                code = 1;
            }
        }
    }
    out[codeIndex] = code;
    return o;
}

int cobs_decode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity) {
    size_t i = 0, o = 0;
    while (i < length) {
        uint8_t code = in[i++];
        if (code == 0) return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (i >= length || in[i] == 0 || o >= capacity) return -1;
            out[o++] = in[i++];
        }
        if (code != 0xFF && i < length) {
            if (o >= capacity) return -1;
            out[o++] = 0;
        }
    }
    return (int)o;
}

size_t slip_encode(const uint8_t *in, size_t length, uint8_t *out) {
    size_t o = 0;
    out[o++] = 0xC0;
    for (size_t i = 0; i < length; i++) {
        if (in[i] == 0xC0) { out[o++] = 0xDB; out[o++] = 0xDC; }
        else if (in[i] == 0xDB) { out[o++] = 0xDB; out[o++] = 0xDD; }
        else out[o++] = in[i];
    }
    out[o++] = 0xC0;
    return o;
}

static uint8_t motor_magnitude(int v, uint8_t reverseBit, uint8_t highBit, uint8_t *control) {
    if (v > 255) v = 255;
    if (v < -255) v = -255;
    int m = v < 0 ? -v : v;
    if (v < 0) *control |= reverseBit;
    if (m >= 128) { *control |= highBit; m -= 128; }
    return (uint8_t)m;
}

void motor_encode(const MotorCommand &c, uint8_t out[4]) {
    uint8_t control = 0;
    out[1] = motor_magnitude(c.steering, 1, 4, &control);
    out[2] = motor_magnitude(c.acceleration, 2, 8, &control);
    if (c.headlights) control |= 16;
    if (c.brakeLights) control |= 32;
    out[0] = control;
    out[3] = ':';
}

bool motor_decode(const uint8_t in[4], MotorCommand *c) {
    if ((in[0] & 0xC0) || in[1] >= 128 || in[2] >= 128 || in[3] != ':') return false;
    uint8_t k = in[0];
    c->steering = ((int)in[1] + ((k & 4) ? 128 : 0)) * ((k & 1) ? -1 : 1);
    c->acceleration = ((int)in[2] + ((k & 8) ? 128 : 0)) * ((k & 2) ? -1 : 1);
    c->headlights = (k & 16) != 0;
    c->brakeLights = (k & 32) != 0;
    return true;
}

bool MotorParser::push(uint8_t byte, MotorCommand *command) {
    if (count_ == 0 && (byte & 0xC0)) { discarded++; return false; }
    window_[count_++] = byte;
    if (count_ < 4) return false;
    if (motor_decode(window_, command)) { count_ = 0; return true; }
    // Slide by one, then drop leading bytes that cannot be a control byte.
    memmove(window_, window_ + 1, 3);
    count_ = 3;
    discarded++;
    while (count_ > 0 && (window_[0] & 0xC0)) {
        memmove(window_, window_ + 1, count_ - 1);
        count_--;
        discarded++;
    }
    return false;
}

bool PinParser::push(uint8_t byte, uint8_t *pin, uint8_t *state) {
    if (pin_) {
        if (byte <= 1) {
            *pin = pin_;
            *state = byte;
            pin_ = 0;
            return true;
        }
        discarded++;
        pin_ = 0;
    }
    if (byte >= 2 && byte <= 13) pin_ = byte; else discarded++;
    return false;
}

size_t accessory_encode(uint8_t counter, uint8_t command, const uint8_t *payload, uint8_t length, uint8_t *out) {
    if (length > ACCESSORY_MAX_PAYLOAD) length = ACCESSORY_MAX_PAYLOAD;
    out[0] = 0x0F; out[1] = 0xF0; out[2] = counter; out[3] = command; out[4] = length;
    memcpy(out + 5, payload, length);
    uint16_t crc = crc16_ccitt_false(out, 5 + (size_t)length);
    out[5 + length] = (uint8_t)(crc >> 8);
    out[6 + length] = (uint8_t)crc;
    return 7 + (size_t)length;
}

int AccessoryParser::check() {
    if (buffer_[0] != 0x0F) return -1;
    if (held_ < 2) return 0;
    if (buffer_[1] != 0xF0) return -1;
    if (held_ < 5) return 0;
    if (buffer_[4] > ACCESSORY_MAX_PAYLOAD) return -1;
    int size = buffer_[4] + ACCESSORY_OVERHEAD;
    if (held_ < size) return 0;
    uint16_t crc = crc16_ccitt_false(buffer_, (size_t)size - 2);
    if (buffer_[size - 2] != (uint8_t)(crc >> 8) || buffer_[size - 1] != (uint8_t)crc) return -1;
    return size;
}

int AccessoryParser::laterFrameEndingHere() {
    for (int k = 1; k + ACCESSORY_OVERHEAD <= held_; k++) {
        if (buffer_[k] != 0x0F || buffer_[k + 1] != 0xF0) continue;
        int length = buffer_[k + 4];
        if (length > ACCESSORY_MAX_PAYLOAD || held_ - k != length + ACCESSORY_OVERHEAD) continue;
        uint16_t crc = crc16_ccitt_false(buffer_ + k, (size_t)(held_ - k - 2));
        if (buffer_[held_ - 2] == (uint8_t)(crc >> 8) && buffer_[held_ - 1] == (uint8_t)crc) return k;
    }
    return 0;
}

bool AccessoryParser::push(uint8_t byte) {
    buffer_[held_++] = byte;
    while (held_ > 0) {
        int r = check();
        if (r == 0) {
            // A false sync can hold back a real frame behind it: accept a later sync whose
            // frame is complete and valid at this byte.
            int k = laterFrameEndingHere();
            if (k == 0) return false;
            held_ -= (uint8_t)k;
            memmove(buffer_, buffer_ + k, held_);
            discarded += (unsigned long)k;
            continue;
        }
        if (r < 0) {
            memmove(buffer_, buffer_ + 1, --held_);
            discarded++;
            continue;
        }
        counter = buffer_[2];
        command = buffer_[3];
        length = buffer_[4];
        memcpy(payload, buffer_ + 5, length);
        lostBefore = haveLast_ ? (uint8_t)(counter - lastCounter_ - 1) : 0;
        lostFrames += lostBefore;
        haveLast_ = true;
        lastCounter_ = counter;
        held_ -= (uint8_t)r;
        memmove(buffer_, buffer_ + r, held_);
        return true;  // a frame found in the rest is reported on the next byte
    }
    return false;
}

size_t xbee_api_encode(uint8_t api, const uint8_t *data, size_t length, bool escaped, uint8_t *out) {
    size_t o = 0;
    out[o++] = 0x7E;
    uint8_t sum = api;
    for (size_t i = 0; i < length; i++) sum = (uint8_t)(sum + data[i]);
    uint16_t n = (uint16_t)(length + 1);
    uint8_t head[3] = {(uint8_t)(n >> 8), (uint8_t)n, api};
    uint8_t check = (uint8_t)(0xFF - sum);
    for (size_t i = 0; i < length + 4; i++) {
        uint8_t b = i < 3 ? head[i] : (i < length + 3 ? data[i - 3] : check);
        if (escaped && (b == 0x7E || b == 0x7D || b == 0x11 || b == 0x13)) {
            out[o++] = 0x7D;
            out[o++] = b ^ 0x20;
        } else {
            out[o++] = b;
        }
    }
    return o;
}

size_t link_encode(uint8_t kind, uint16_t seq, const uint8_t *payload, uint8_t length, uint8_t *out) {
    uint8_t packet[LINK_HEADER + 243 + LINK_CRC];
    if (length > 243) length = 243;
    packet[0] = kind;
    packet[1] = (uint8_t)seq;
    packet[2] = (uint8_t)(seq >> 8);
    packet[3] = length;
    memcpy(packet + LINK_HEADER, payload, length);
    uint32_t crc = crc32_update(0, packet, LINK_HEADER + (size_t)length);
    for (uint8_t i = 0; i < 4; i++) packet[LINK_HEADER + length + i] = (uint8_t)(crc >> (8 * i));
    out[0] = 0;
    size_t n = cobs_encode(packet, LINK_HEADER + (size_t)length + LINK_CRC, out + 1);
    out[n + 1] = 0;
    return n + 2;
}

bool LinkReceiver::push(uint8_t byte) {
    if (byte != 0) {
        if (held_ < sizeof coded_) coded_[held_++] = byte; else overlong_ = true;
        return false;
    }
    uint8_t n = held_;
    bool overlong = overlong_;
    held_ = 0;
    overlong_ = false;
    if (n == 0) return false;
    uint8_t packet[sizeof coded_];
    int size = overlong ? -1 : cobs_decode(coded_, n, packet, sizeof packet);
    if (size < LINK_HEADER + LINK_CRC || packet[3] != size - LINK_HEADER - LINK_CRC) { damaged++; return false; }
    uint8_t len = packet[3];
    uint32_t crc = crc32_update(0, packet, LINK_HEADER + (size_t)len);
    uint32_t got = 0;
    for (uint8_t i = 0; i < 4; i++) got |= (uint32_t)packet[LINK_HEADER + len + i] << (8 * i);
    if (crc != got) { damaged++; return false; }
    uint8_t kind = packet[0];
    if (kind == LINK_HELLO) {
        // A sender's request (not our own reply): it wants to know what we take.
        if (len >= 5 && packet[LINK_HEADER] >= LINK_VERSION && (packet[LINK_HEADER + 1] & LINK_HELLO_REQUEST)) {
            helloPending = true;
            nonceLength_ = len - 5 < 4 ? len - 5 : 4;
            memcpy(nonce_, packet + LINK_HEADER + 5, nonceLength_);
        }
        return false;
    }
    if (kind != LINK_DATA && kind != LINK_DATA_END) return false;  // ACKs are for the sender
    if (len > sizeof payload) { damaged++; return false; }
    ackPending = true;
    uint16_t seq = (uint16_t)(packet[1] | (packet[2] << 8));
    int16_t ahead = (int16_t)(uint16_t)(seq - expected);
    uint8_t slot = seq % LINK_WINDOW;
    // Already delivered, already held, or past what the window lets the sender have in flight.
    if (ahead < 0 || ahead > LINK_WINDOW || (ahead > 0 && slotLength_[slot] != 0xFF)) { duplicates++; return false; }
    if (ahead > 0) {
        memcpy(slots_[slot], packet + LINK_HEADER, len);
        slotLength_[slot] = len;
        slotEnd_[slot] = kind == LINK_DATA_END;
        return false;
    }
    expected++;
    memcpy(payload, packet + LINK_HEADER, len);
    length = len;
    endOfMessage = kind == LINK_DATA_END;
    return true;
}

bool LinkReceiver::pull() {
    uint8_t slot = expected % LINK_WINDOW;
    if (slotLength_[slot] == 0xFF) return false;
    length = slotLength_[slot];
    memcpy(payload, slots_[slot], length);
    endOfMessage = slotEnd_[slot];
    slotLength_[slot] = 0xFF;
    expected++;
    return true;
}

size_t LinkReceiver::ack(uint8_t *out) {
    ackPending = false;
    uint32_t bitmap = 0;
    for (uint8_t i = 0; i < LINK_WINDOW; i++) {
        if (slotLength_[(uint16_t)(expected + 1 + i) % LINK_WINDOW] != 0xFF) bitmap |= (uint32_t)1 << i;
    }
    uint8_t bits[4] = {(uint8_t)bitmap, (uint8_t)(bitmap >> 8), (uint8_t)(bitmap >> 16), (uint8_t)(bitmap >> 24)};
    return link_encode(LINK_ACK, expected, bits, 4, out);
}

size_t LinkReceiver::hello(uint8_t *out) {
    helloPending = false;
    uint8_t caps[9] = {LINK_VERSION, LINK_HELLO_FULL_DUPLEX | LINK_HELLO_SELECTIVE, LINK_WINDOW, LINK_MAX_PAYLOAD, 0};
    memcpy(caps + 5, nonce_, nonceLength_);
    return link_encode(LINK_HELLO, 0, caps, 5 + nonceLength_, out);
}
