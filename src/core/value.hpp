// A JSON-like value: what an event of the log holds (docs/ENGINE.md's event dicts). Objects keep
// their keys in the order they were written, as the Python dicts do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
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
    static Value obj(std::initializer_list<Item> items) {
        Value v;
        v.kind = OBJECT;
        v.object.assign(items.begin(), items.end());
        return v;
    }
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
    static Value pair(int x, int y) { return Value(std::vector<Value>{Value(x), Value(y)}); }

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

}  // namespace dungeon_core
