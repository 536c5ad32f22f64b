// Byte protocols of the softmodem project, board side.
//
// Plain C++ with no Arduino headers and no heap, so the same file compiles for AVR and on
// the host (the test suite builds it with g++ and compares it with the Swift code using
// shared test vectors). Buffers are sized for the Arduino SoftModem's 31-byte receive ring.
#ifndef MODEM_FRAMING_H
#define MODEM_FRAMING_H

#include <stddef.h>
#include <stdint.h>

// ---- checksums ----
// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR.
uint16_t crc16_ccitt_false(const uint8_t *data, size_t length);
// CRC-32 (IEEE, zlib): continue with the previous result, start with 0. Bitwise, no table.
uint32_t crc32_update(uint32_t crc, const uint8_t *data, size_t length);

// ---- COBS and SLIP ----
// Writes the COBS code of `length` bytes (no delimiter); returns its length
// (at most length + length / 254 + 1).
size_t cobs_encode(const uint8_t *in, size_t length, uint8_t *out);
// Decodes COBS bytes without the delimiter; returns the payload length or -1 if invalid.
int cobs_decode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity);
// END, escaped payload, END; returns the length (at most 2 * length + 2).
size_t slip_encode(const uint8_t *in, size_t length, uint8_t *out);

// ---- Carduino motor packets ----
struct MotorCommand {
    int steering;      // -255...255
    int acceleration;  // -255...255
    bool headlights;
    bool brakeLights;
};
void motor_encode(const MotorCommand &command, uint8_t out[4]);
bool motor_decode(const uint8_t in[4], MotorCommand *command);

// Sliding-window parser: push bytes, true when `command` holds a new packet.
class MotorParser {
public:
    MotorParser() : discarded(0), count_(0) {}
    bool push(uint8_t byte, MotorCommand *command);
    unsigned long discarded;
private:
    uint8_t window_[4];
    uint8_t count_;
};

// ---- Paduino pin control ----
class PinParser {
public:
    PinParser() : discarded(0), pin_(0) {}
    // True when a pin (2-13) and state (0/1) pair is complete.
    bool push(uint8_t byte, uint8_t *pin, uint8_t *state);
    unsigned long discarded;
private:
    uint8_t pin_;
};

// ---- accessory frames: 0F F0 counter command length payload crc16(BE) ----
enum { ACCESSORY_MAX_PAYLOAD = 24, ACCESSORY_OVERHEAD = 7 };
size_t accessory_encode(uint8_t counter, uint8_t command, const uint8_t *payload, uint8_t length, uint8_t *out);

class AccessoryParser {
public:
    AccessoryParser() : counter(0), command(0), length(0), lostBefore(0), discarded(0), lostFrames(0), held_(0), haveLast_(false), lastCounter_(0) {}
    // True when a valid frame is complete; its fields are then in the public members below.
    bool push(uint8_t byte);
    uint8_t counter, command, length, lostBefore;
    uint8_t payload[ACCESSORY_MAX_PAYLOAD];
    unsigned long discarded, lostFrames;
private:
    int check();  // -1 invalid, 0 incomplete, size if complete
    int laterFrameEndingHere();  // offset of a complete later frame, 0 if none
    uint8_t buffer_[ACCESSORY_MAX_PAYLOAD + ACCESSORY_OVERHEAD];
    uint8_t held_;
    bool haveLast_;
    uint8_t lastCounter_;
};

// ---- XBee API frames ----
// Returns the frame length; `escaped` selects API mode 2. `out` needs 2 * (length + 5) bytes.
size_t xbee_api_encode(uint8_t api, const uint8_t *data, size_t length, bool escaped, uint8_t *out);

// ---- reliable link ----
// Packet: kind, seq (LE16), length, payload, CRC-32 (LE) -> COBS between 0x00 delimiters.
// The link opens with a hello from the sender; the board answers with what it can take
// (docs/protocols.md, "Reliable link").
enum {
    LINK_DATA = 0x01, LINK_DATA_END = 0x81, LINK_ACK = 0x02, LINK_HELLO = 0x03,
    LINK_HEADER = 4, LINK_CRC = 4, LINK_WIRE_OVERHEAD = 11,
    LINK_VERSION = 2,
    LINK_RECEIVE_BUFFER = 31,  // SoftModem's receive ring
    // What the board states in its hello: 8 packets of up to 64 bytes in flight, full duplex
    // (SoftModem receives by interrupt while write() sends), selective repeat (a packet after
    // a gap is kept: 8 x 64 bytes of RAM, so a lost packet costs only itself), no Reed-Solomon
    // repair. LINK_WINDOW must be a power of two (slots are chosen by seq % LINK_WINDOW).
    LINK_WINDOW = 8,
    LINK_MAX_PAYLOAD = 64,
    LINK_HELLO_FULL_DUPLEX = 0x01, LINK_HELLO_SELECTIVE = 0x02, LINK_HELLO_REQUEST = 0x80
};
// Writes the wire bytes of one packet; returns their count (payload <= 243).
size_t link_encode(uint8_t kind, uint16_t seq, const uint8_t *payload, uint8_t length, uint8_t *out);

// The board end of the link: answers hellos, delivers payloads in order, exactly once, and
// says when to ACK. A packet after a gap is held (up to LINK_WINDOW past the gap) and
// acknowledged in the ACK's bitmap, so the sender repeats only what was lost.
class LinkReceiver {
public:
    LinkReceiver() : length(0), endOfMessage(false), expected(0), ackPending(false), helloPending(false), damaged(0), duplicates(0), held_(0), overlong_(false), nonceLength_(0) {
        for (uint8_t i = 0; i < LINK_WINDOW; i++) slotLength_[i] = 0xFF;
    }
    // Feeds one received byte. Returns true when `payload`/`length`/`endOfMessage` hold the
    // next piece of data; then call pull() until it returns false, for held packets the new
    // one has put in order. Sets ackPending whenever a valid data packet arrives,
    // helloPending when a sender's hello asks for ours.
    bool push(uint8_t byte);
    // Moves the next packet in order, if it is held, to `payload`; true when it did.
    bool pull();
    // Writes the ACK (next expected seq, then the 32-bit bitmap of the packets held past it);
    // returns its length. Clears ackPending.
    size_t ack(uint8_t *out);
    // Writes our hello (the capabilities above, then the request's random bytes, so the reply
    // answers that request); returns its length. Clears helloPending.
    size_t hello(uint8_t *out);
    uint8_t payload[LINK_MAX_PAYLOAD];
    uint8_t length;
    bool endOfMessage;
    uint16_t expected;
    bool ackPending;
    bool helloPending;
    unsigned long damaged, duplicates;
private:
    // One packet of the largest payload, COBS-coded, with room for a host's parity.
    uint8_t coded_[LINK_HEADER + LINK_MAX_PAYLOAD + LINK_CRC + 16];
    uint8_t held_;
    bool overlong_;
    uint8_t nonce_[4];
    uint8_t nonceLength_;
    // Packets held past a gap: slot seq % LINK_WINDOW; length 0xFF marks an empty slot, and
    // slotEnd_ keeps each held packet's end-of-message mark. A caller must drain pull() after
    // every push() that returns true, or a slot stays full and later packets are refused.
    uint8_t slots_[LINK_WINDOW][LINK_MAX_PAYLOAD];
    uint8_t slotLength_[LINK_WINDOW];
    uint8_t slotEnd_[LINK_WINDOW];
};

#endif
