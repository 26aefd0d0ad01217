#include "event_log.hpp"

#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace dungeon_core {
namespace {

void put_varint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

// The strings of one chunk, each given an index in order of first use: an open-addressing table of
// views into the events, which outlive it (a chunk's values are dropped only once it is frozen), so
// no string is copied and nothing is allocated per string.
class Interner {
public:
    Interner() : slots_(1024, {std::string_view(), EMPTY}) { strings.reserve(256); }
    uint32_t index(std::string_view s) {
        if (2 * (strings.size() + 1) > slots_.size()) grow();
        size_t at = place(s);
        if (slots_[at].second == EMPTY) {
            slots_[at] = {s, static_cast<uint32_t>(strings.size())};
            strings.push_back(s);
        }
        return slots_[at].second;
    }
    std::vector<std::string_view> strings;  // by index

private:
    static constexpr uint32_t EMPTY = UINT32_MAX;
    static uint64_t hash(std::string_view s) {  // FNV-1a
        uint64_t h = 1469598103934665603ull;
        for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
        return h;
    }
    size_t place(std::string_view s) const {  // the slot holding s, or the empty one it would take
        const size_t mask = slots_.size() - 1;
        size_t at = hash(s) & mask;
        while (slots_[at].second != EMPTY && slots_[at].first != s) at = (at + 1) & mask;
        return at;
    }
    void grow() {
        slots_.assign(2 * slots_.size(), {std::string_view(), EMPTY});
        for (uint32_t k = 0; k < strings.size(); ++k) slots_[place(strings[k])] = {strings[k], k};
    }
    std::vector<std::pair<std::string_view, uint32_t>> slots_;
};

struct Encoder {
    std::string body;
    Interner interned;

    Encoder() { body.reserve(4096); }
    void string(const std::string& s) { put_varint(body, interned.index(s)); }
    void value(const Value& v) {
        body.push_back(static_cast<char>(v.kind));
        switch (v.kind) {
            case Value::NONE:
                break;
            case Value::BOOL:
                body.push_back(v.b ? 1 : 0);
                break;
            case Value::INT:  // zigzag: small negative numbers stay short
                put_varint(body, (static_cast<uint64_t>(v.i) << 1) ^ static_cast<uint64_t>(v.i >> 63));
                break;
            case Value::STR:
                string(v.s);
                break;
            case Value::LIST:
                put_varint(body, v.list.size());
                for (const Value& item : v.list) value(item);
                break;
            case Value::OBJECT:
                put_varint(body, v.object.size());
                for (const auto& [key, item] : v.object) {
                    string(key);
                    value(item);
                }
                break;
        }
    }
};

struct Decoder {
    const std::string& in;
    size_t at = 0;
    std::vector<std::string> strings;

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
                    const std::string& key = string();
                    out.object.emplace_back(key, value());
                }
                return out;
            }
        }
        throw std::logic_error("event log: a frozen chunk holds an unknown value kind");
    }
};

}  // namespace

// A chunk: the number of strings, each string (length, bytes), then the events.
void EventLog::freeze() {
    Encoder enc;
    for (const Value& event : tail_) enc.value(event);
    std::string chunk;
    put_varint(chunk, enc.interned.strings.size());
    for (std::string_view s : enc.interned.strings) {
        put_varint(chunk, s.size());
        chunk += s;
    }
    chunk += enc.body;
    chunk.shrink_to_fit();
    frozen_.push_back(std::make_shared<const std::string>(std::move(chunk)));
    tail_.clear();
}

std::vector<Value> EventLog::decode(const std::string& chunk) {
    Decoder dec{chunk};
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
    size_t n = heap_bytes(v.s) + v.list.capacity() * sizeof(Value) + v.object.capacity() * sizeof(Value::Item);
    for (const Value& item : v.list) n += heap_bytes(item);
    for (const auto& [key, item] : v.object) n += heap_bytes(key) + heap_bytes(item);
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
