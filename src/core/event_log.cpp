#include "event_log.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace dungeon_core {

std::string_view intern_key(std::string_view key) {
    // A node set: a kept string never moves. The keys of events are a few hundred words at most, so
    // the set stays small; the lock is taken for run-time keys only, never for the rules' literals.
    static std::mutex lock;
    static std::unordered_set<std::string> kept;
    std::lock_guard<std::mutex> hold(lock);
    return *kept.emplace(key).first;
}

namespace {

// A growing byte buffer written through a pointer: room(n) makes n bytes writable after what was written, and
// written(p) says where the writing stopped. A freeze writes a byte or a varint per value, so each
// write is a store and a bump, not a std::string::push_back with its own capacity check.
class Bytes {
public:
    char* room(size_t n) {
        if (len_ + n > buf_.size()) buf_.resize(std::max(2 * buf_.size(), len_ + n + 256));
        return buf_.data() + len_;
    }
    void written(const char* end) { len_ = static_cast<size_t>(end - buf_.data()); }
    void clear() { len_ = 0; }
    std::string_view view() const { return {buf_.data(), len_}; }

private:
    std::string buf_;  // its size is the capacity; len_ the bytes written
    size_t len_ = 0;
};

constexpr size_t MAX_VARINT = 10;  // bytes of a 64-bit varint

char* put_varint(char* out, uint64_t v) {
    while (v >= 0x80) {
        *out++ = static_cast<char>(v | 0x80);
        v >>= 7;
    }
    *out++ = static_cast<char>(v);
    return out;
}

size_t varint_size(uint64_t v) {
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

void put_varint(std::string& out, uint64_t v) {
    char bytes[MAX_VARINT];
    out.append(bytes, put_varint(bytes, v));
}

// The strings of one chunk, each given an index in order of first use: an open-addressing table of
// views into the events, which outlive it (a chunk's values are dropped only once it is frozen), so
// no string is copied and nothing is allocated per string. The table is kept from one chunk to the
// next and emptied by a new generation, not by clearing its slots.
class Interner {
public:
    Interner() : slots_(1024) { strings.reserve(256); }
    void reset() {
        strings.clear();
        if (++generation_ == 0) {  // wrapped: no slot may look current
            for (Slot& slot : slots_) slot.generation = 0;
            generation_ = 1;
        }
    }
    uint32_t index(std::string_view s) {
        if (2 * (strings.size() + 1) > slots_.size()) grow();
        const Key key = key_of(s);
        Slot& slot = slots_[place(s, key)];
        if (slot.generation != generation_) {
            slot = {s, key, static_cast<uint32_t>(strings.size()), generation_};
            strings.push_back(s);
        }
        return slot.index;
    }
    std::vector<std::string_view> strings;  // by index

private:
    // A string's length and two words of its bytes: the first and last four or eight bytes (they
    // overlap when shorter), or for fewer than four its first, middle and last byte. Up to 16 bytes
    // (keys, words, labels: nearly every string of an event) the key is the whole string, so equal
    // keys are equal strings and only longer ones are compared byte by byte.
    struct Key {
        uint64_t size, a, b;
        bool operator==(const Key& o) const { return size == o.size && a == o.a && b == o.b; }
    };
    static uint64_t load(const char* p, size_t n) {
        uint64_t w = 0;
        std::memcpy(&w, p, n);
        return w;
    }
    static Key key_of(std::string_view s) {
        const char* p = s.data();
        const size_t n = s.size();
        if (n >= 8) return {n, load(p, 8), load(p + n - 8, 8)};
        if (n >= 4) return {n, load(p, 4), load(p + n - 4, 4)};
        if (n > 0) return {n, load(p, 1) | load(p + n / 2, 1) << 8 | load(p + n - 1, 1) << 16, 0};
        return {0, 0, 0};
    }
    static uint64_t hash(const Key& k) {
        uint64_t h = (k.a ^ (k.size << 56)) * 0x9E3779B97F4A7C15ull;
        h = (h ^ (h >> 29) ^ k.b) * 0xBF58476D1CE4E5B9ull;
        return h ^ (h >> 32);
    }
    struct Slot {
        std::string_view text;
        Key key;
        uint32_t index = 0;
        uint32_t generation = 0;  // the slot is in use when it is the table's
    };
    size_t place(std::string_view s, const Key& key) const {  // the slot holding s, or the free one it would take
        const size_t mask = slots_.size() - 1;
        size_t at = hash(key) & mask;
        while (slots_[at].generation == generation_ && !(slots_[at].key == key && (key.size <= 16 || slots_[at].text == s))) {
            at = (at + 1) & mask;
        }
        return at;
    }
    void grow() {
        slots_.assign(2 * slots_.size(), Slot{});
        generation_ = 1;
        for (uint32_t k = 0; k < strings.size(); ++k) {
            const Key key = key_of(strings[k]);
            slots_[place(strings[k], key)] = {strings[k], key, k, generation_};
        }
    }
    std::vector<Slot> slots_;
    uint32_t generation_ = 1;
};

// A key's index in the chunk, found by the address of its text first: an object's key is a view of
// a literal or of intern_key's text, which never change or move, so the same address with the same
// length is the same key. Most keys of a chunk are the same few words, found here without hashing
// their bytes; a miss asks the interner, which compares the text.
class KeyCache {
public:
    template <typename Miss>
    uint32_t index(std::string_view key, uint32_t generation, Miss&& miss) {
        Slot& slot = slots_[(reinterpret_cast<uintptr_t>(key.data()) * 0x9E3779B97F4A7C15ull) >> 56];
        if (slot.generation != generation || slot.data != key.data() || slot.size != key.size()) {
            slot = {key.data(), key.size(), miss(key), generation};
        }
        return slot.index;
    }

private:
    static constexpr size_t N = 256;  // the slots: the top 8 bits of the address hashed
    struct Slot {
        const char* data = nullptr;
        size_t size = 0;
        uint32_t index = 0;
        uint32_t generation = 0;  // the chunk it was filled for; 0: never
    };
    Slot slots_[N];
};

struct Encoder {
    Bytes body;
    Interner interned;
    KeyCache keys;
    uint32_t chunk = 0;  // counts the chunks encoded (KeyCache's generation), from 1

    void reset() {
        body.clear();
        interned.reset();
        if (++chunk == 0) {  // wrapped: start the cache afresh
            keys = KeyCache();
            chunk = 1;
        }
    }
    void value(const Value& v) {
        char* out = body.room(1 + MAX_VARINT);
        *out++ = static_cast<char>(v.kind);
        switch (v.kind) {
            case Value::NONE:
                break;
            case Value::BOOL:
                *out++ = v.b ? 1 : 0;
                break;
            case Value::INT:  // zigzag: small negative numbers stay short
                out = put_varint(out, (static_cast<uint64_t>(v.i) << 1) ^ static_cast<uint64_t>(v.i >> 63));
                break;
            case Value::STR:
                out = put_varint(out, interned.index(v.s));
                break;
            case Value::LIST:
                out = put_varint(out, v.list.size());
                body.written(out);
                for (const Value& item : v.list) value(item);
                return;
            case Value::OBJECT:
                out = put_varint(out, v.object.size());
                body.written(out);
                for (const auto& [key, item] : v.object) {
                    const uint32_t k = keys.index(key, chunk, [this](std::string_view s) { return interned.index(s); });
                    char* at = body.room(MAX_VARINT);
                    body.written(put_varint(at, k));
                    value(item);
                }
                return;
        }
        body.written(out);
    }
};

struct Decoder {
    const std::string& in;
    size_t at = 0;
    std::vector<std::string> strings;
    std::vector<std::string_view> keys;  // [k]: strings[k] as a kept key, once used as one

    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            if (at >= in.size()) throw std::logic_error("event log: a frozen chunk ends inside a number");
            auto byte = static_cast<uint8_t>(in[at++]);
            v |= static_cast<uint64_t>(byte & 0x7F) << shift;
            if (!(byte & 0x80)) return v;
        }
    }
    const std::string& string() { return strings.at(varint()); }
    std::string_view key() {
        const size_t k = varint();
        if (keys.size() < strings.size()) keys.resize(strings.size());
        if (keys.at(k).data() == nullptr) keys[k] = intern_key(strings[k]);
        return keys[k];
    }
    Value value() {
        auto kind = static_cast<Value::Kind>(in.at(at++));
        switch (kind) {
            case Value::NONE:
                return Value();
            case Value::BOOL:
                return Value(in.at(at++) != 0);
            case Value::INT: {
                uint64_t z = varint();
                return Value(static_cast<long long>((z >> 1) ^ (~(z & 1) + 1)));
            }
            case Value::STR:
                return Value(string());
            case Value::LIST: {
                Value out = Value::empty_list();
                out.list.resize(varint());
                for (Value& item : out.list) item = value();
                return out;
            }
            case Value::OBJECT: {
                Value out = Value::empty_obj();
                size_t n = varint();
                out.object.reserve(n);
                for (size_t k = 0; k < n; ++k) {
                    const std::string_view name = key();
                    out.object.emplace_back(name, value());
                }
                return out;
            }
        }
        throw std::logic_error("event log: a frozen chunk holds an unknown value kind");
    }
};

// One encoder per thread, kept from one freeze to the next with its buffers and table (reached
// through a call, so that the encoder's code reads it through a pointer, not the thread's storage
// at every access).
[[gnu::noinline]] Encoder& encoder() {
    static thread_local Encoder enc;
    return enc;
}

}  // namespace

// A chunk: the number of strings, each string (length, bytes), then the events.
void EventLog::freeze() {
    Encoder& enc = encoder();
    enc.reset();
    const auto oldest = tail_.begin() + CHUNK;
    for (auto event = tail_.begin(); event != oldest; ++event) enc.value(*event);
    std::string head;
    put_varint(head, enc.interned.strings.size());
    size_t text = 0;  // the strings with their lengths
    for (std::string_view s : enc.interned.strings) text += varint_size(s.size()) + s.size();
    const std::string_view body = enc.body.view();
    auto chunk = std::make_shared<std::string>();
    chunk->reserve(head.size() + text + body.size());  // one allocation, of the chunk's size
    *chunk += head;
    for (std::string_view s : enc.interned.strings) {
        put_varint(*chunk, s.size());
        *chunk += s;
    }
    *chunk += body;
    frozen_.push_back(std::move(chunk));
    tail_.erase(tail_.begin(), oldest);
}

std::vector<Value> EventLog::decode(const std::string& chunk) {
    Decoder dec{chunk, 0, {}, {}};
    size_t n = dec.varint();
    dec.strings.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        size_t len = dec.varint();
        dec.strings.push_back(chunk.substr(dec.at, len));
        dec.at += len;
    }
    std::vector<Value> events;
    events.reserve(CHUNK);
    while (dec.at < chunk.size()) events.push_back(dec.value());
    return events;
}

namespace {

size_t heap_bytes(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

size_t heap_bytes(const Value& v) {
    size_t n = 0;
    if (v.kind == Value::STR) n += heap_bytes(v.s);
    if (v.kind == Value::LIST) {
        n += v.list.capacity() * sizeof(Value);
        for (const Value& item : v.list) n += heap_bytes(item);
    }
    if (v.kind == Value::OBJECT) {
        n += v.object.capacity() * sizeof(Value::Item);
        for (const auto& item : v.object) n += heap_bytes(item.second);  // a key is a view
    }
    return n;
}

}  // namespace

size_t EventLog::nbytes() const {
    size_t n = sizeof(*this) + frozen_.capacity() * sizeof(frozen_[0]) + tail_.capacity() * sizeof(Value);
    for (const auto& chunk : frozen_) n += sizeof(std::string) + 16 + heap_bytes(*chunk);  // 16: the shared count
    for (const Value& event : tail_) n += heap_bytes(event);
    return n;
}

}  // namespace dungeon_core
