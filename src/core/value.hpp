// A JSON-like value: what an event of the log holds (docs/ENGINE.md's event dicts). Objects keep
// their keys in the order they were written, as the Python dicts do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace dungeon_core {

struct Value {
    enum Kind : uint8_t { NONE, BOOL, INT, STR, LIST, OBJECT };
    using Item = std::pair<std::string, Value>;

    Kind kind = NONE;
    bool b = false;
    int64_t i = 0;
    std::string s;
    std::vector<Value> list;
    std::vector<Item> object;

    Value() = default;
    Value(std::nullptr_t) {}
    Value(bool v) : kind(BOOL), b(v) {}
    Value(int v) : kind(INT), i(v) {}
    Value(long v) : kind(INT), i(v) {}
    Value(long long v) : kind(INT), i(v) {}
    Value(unsigned v) : kind(INT), i(v) {}
    Value(const char* v) : kind(STR), s(v) {}
    Value(std::string v) : kind(STR), s(std::move(v)) {}
    Value(std::vector<Value> v) : kind(LIST), list(std::move(v)) {}
    Value(const std::vector<int>& v) : kind(LIST) {
        list.reserve(v.size());
        for (int x : v) list.emplace_back(x);
    }
    Value(const std::vector<std::string>& v) : kind(LIST) {
        list.reserve(v.size());
        for (const auto& x : v) list.emplace_back(x);
    }

    // {{"type", "move"}, {"unit", label}, ...}
    struct Field;
    static Value obj(std::initializer_list<Field> items);
    static Value empty_obj() {
        Value v;
        v.kind = OBJECT;
        return v;
    }
    static Value empty_list() {
        Value v;
        v.kind = LIST;
        return v;
    }
    // [x, y]
    static Value pair(int x, int y) {
        Value v = empty_list();
        v.list.reserve(2);
        v.list.emplace_back(x);
        v.list.emplace_back(y);
        return v;
    }

    // objects: set (or add at the end) a key
    Value& set(const std::string& key, Value v) {
        for (auto& item : object) {
            if (item.first == key) {
                item.second = std::move(v);
                return item.second;
            }
        }
        object.emplace_back(key, std::move(v));
        return object.back().second;
    }
    const Value* get(const std::string& key) const {
        for (const auto& item : object) {
            if (item.first == key) return &item.second;
        }
        return nullptr;
    }
    void push(Value v) { list.push_back(std::move(v)); }
};

// One key and value of Value::obj's list. The elements of an initializer_list are const: the value
// is mutable so that obj() moves it into the object instead of copying it (with every nested string
// and list) and destroying the original. The key is a view of the caller's text (a literal, or a
// string that lives to the end of the statement that calls obj, as the list does), so that obj()
// makes each key's string once, in its place.
struct Value::Field {
    std::string_view key;
    mutable Value value;
    Field(const char* k, Value v) : key(k), value(std::move(v)) {}
    Field(const std::string& k, Value v) : key(k), value(std::move(v)) {}
};

inline Value Value::obj(std::initializer_list<Field> items) {
    Value v;
    v.kind = OBJECT;
    v.object.reserve(items.size());
    for (const Field& f : items) v.object.emplace_back(std::piecewise_construct, std::forward_as_tuple(f.key),
                                                       std::forward_as_tuple(std::move(f.value)));
    return v;
}

}  // namespace dungeon_core
