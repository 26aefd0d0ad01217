// A JSON-like value: what an event of the log holds (docs/ENGINE.md's event dicts). Objects keep
// their keys in the order they were written, as the Python dicts do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace dungeon_core {

// The text of an object's key, kept for the life of the process: a key is a view, not a string of its
// own. The rules' keys are literals and need no keeping; a key made at run time (a modifier's name, a
// key from Python or a decoded one) is kept once here, the first time it is seen (event_log.cpp).
std::string_view intern_key(std::string_view key);

struct Value {
    enum Kind : uint8_t { NONE, BOOL, INT, STR, LIST, OBJECT };
    using Item = std::pair<std::string_view, Value>;  // the key: a literal's text or intern_key's

    Kind kind = NONE;
    bool b = false;
    // The payload, one member alive at a time: `i` for NONE, BOOL and INT (0 but for INT), `s` for
    // STR, `list` for LIST, `object` for OBJECT. A node is 40 bytes, not the 96 of a string and two
    // vectors side by side; the rules build a few tens of nodes a decision, and moving, freeing and
    // encoding them cost in proportion to their size.
    union {
        int64_t i = 0;
        std::string s;
        std::vector<Value> list;
        std::vector<Item> object;
    };

    Value() {}
    Value(std::nullptr_t) {}
    Value(bool v) : kind(BOOL), b(v) {}
    Value(int v) : kind(INT), i(v) {}
    Value(long v) : kind(INT), i(v) {}
    Value(long long v) : kind(INT), i(v) {}
    Value(unsigned v) : kind(INT), i(v) {}
    Value(const char* v) : kind(STR), s(v) {}
    Value(std::string v) : kind(STR), s(std::move(v)) {}
    Value(std::vector<Value> v) : kind(LIST), list(std::move(v)) {}
    Value(const std::vector<int>& v) : kind(LIST), list() {
        list.reserve(v.size());
        for (int x : v) list.emplace_back(x);
    }
    Value(const std::vector<std::string>& v) : kind(LIST), list() {
        list.reserve(v.size());
        for (const auto& x : v) list.emplace_back(x);
    }
    Value(const Value& o) : kind(o.kind), b(o.b) { construct_from(o); }
    Value(Value&& o) noexcept : kind(o.kind), b(o.b) { construct_from(std::move(o)); }
    Value& operator=(const Value& o) {
        if (this != &o) {
            Value copy(o);
            *this = std::move(copy);
        }
        return *this;
    }
    Value& operator=(Value&& o) noexcept {
        if (this == &o) return *this;
        if (kind == o.kind) {  // the same member alive on both sides: assign it
            b = o.b;
            switch (kind) {
                case STR: s = std::move(o.s); break;
                case LIST: list = std::move(o.list); break;
                case OBJECT: object = std::move(o.object); break;
                default: i = o.i; break;
            }
            return *this;
        }
        destroy();
        kind = o.kind;
        b = o.b;
        construct_from(std::move(o));
        return *this;
    }
    ~Value() { destroy(); }

    // {{"type", "move"}, {"unit", label}, ...}
    struct Field;
    static Value obj(std::initializer_list<Field> items);
    static Value empty_obj() { return Value(std::vector<Item>()); }
    static Value empty_list() { return Value(std::vector<Value>()); }
    // [x, y]
    static Value pair(int x, int y) {
        Value v = empty_list();
        v.list.reserve(2);
        v.list.emplace_back(x);
        v.list.emplace_back(y);
        return v;
    }

    // objects: set (or add at the end) a key
    Value& set(std::string_view key, Value v) {
        for (auto& item : object) {
            if (item.first == key) {
                item.second = std::move(v);
                return item.second;
            }
        }
        object.emplace_back(intern_key(key), std::move(v));
        return object.back().second;
    }
    const Value* get(std::string_view key) const {
        if (kind != OBJECT) return nullptr;
        for (const auto& item : object) {
            if (item.first == key) return &item.second;
        }
        return nullptr;
    }
    void push(Value v) { list.push_back(std::move(v)); }

private:
    explicit Value(std::vector<Item> v) : kind(OBJECT), object(std::move(v)) {}
    // the member of this->kind made from o's (o of the same kind)
    template <typename V>
    void construct_from(V&& o) {
        switch (kind) {
            case STR: new (&s) std::string(std::forward<V>(o).s); break;
            case LIST: new (&list) std::vector<Value>(std::forward<V>(o).list); break;
            case OBJECT: new (&object) std::vector<Item>(std::forward<V>(o).object); break;
            default: i = o.i; break;
        }
    }
    void destroy() {
        switch (kind) {
            case STR: s.~basic_string(); break;
            case LIST: list.~vector(); break;
            case OBJECT: object.~vector(); break;
            default: break;
        }
    }
};

// One key and value of Value::obj's list. The elements of an initializer_list are const: the value
// is mutable so that obj() moves it into the object instead of copying it (with every nested string
// and list) and destroying the original. A key given as a literal is its own text (it lives as long
// as the program); one given as a string is kept by intern_key.
struct Value::Field {
    std::string_view key;
    mutable Value value;
    Field(const char* k, Value v) : key(k), value(std::move(v)) {}
    Field(const std::string& k, Value v) : key(intern_key(k)), value(std::move(v)) {}
};

inline Value Value::obj(std::initializer_list<Field> items) {
    Value v = empty_obj();
    v.object.reserve(items.size());
    for (const Field& f : items) v.object.emplace_back(f.key, std::move(f.value));
    return v;
}

}  // namespace dungeon_core
