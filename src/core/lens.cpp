// The heroes' lens in the core: see lens.hpp. Each step mirrors knowledge.HeroLens.
#include "lens.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace dungeon_core {
namespace {

bool is_monster(const Value& ref) {
    if (ref.kind != Value::STR || ref.s.size() < 2 || ref.s[0] != 'm') return false;
    return std::all_of(ref.s.begin() + 1, ref.s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

int square_of(const Value& xy) {
    if (xy.kind != Value::LIST || xy.list.size() != 2) return -1;
    const int x = static_cast<int>(xy.list[0].i), y = static_cast<int>(xy.list[1].i);
    if (x < 0 || x >= WIDTH || y < 0 || y >= HEIGHT) return -1;
    return y * WIDTH + x;
}

const std::string& type_of(const Value& event) {
    static const std::string none;
    const Value* t = event.get("type");
    return t != nullptr && t->kind == Value::STR ? t->s : none;
}

// A field the event's type always has (a KeyError in the Python lens): an invalid_argument naming it
// if a hand-logged event lacks it.
const Value& need(const Value& event, const char* key) {
    const Value* v = event.get(key);
    if (v == nullptr) {
        throw std::invalid_argument("the heroes' lens: a '" + type_of(event) + "' event without its '" + key +
                                    "' field");
    }
    return *v;
}

void erase(Value& object, const std::string& key) {
    auto& items = object.object;
    items.erase(std::remove_if(items.begin(), items.end(), [&](const Value::Item& it) { return it.first == key; }),
                items.end());
}

// a figure field of an event of `type` that redact() rewrites before naming the figures: the unit of a
// monster's move, a card, the set-up's seed, a door's index, a room event's place
bool rewritten(const std::string& key, const std::string& type, bool monster_moved, bool placed) {
    return (monster_moved && key == "unit") || key == "card" || (key == "seed" && type == "setup") ||
           (key == "door" && (type == "door_opened" || type == "secret_door")) ||
           ((key == "event" || key == "area" || key == "area_event") && placed);
}

int area_index(const Game& g, const std::string& name) {
    const auto& names = g.tables().area_names;
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

}  // namespace

std::vector<int> HeroLens::monsters_in_sight(const Game& g) {
    const State& s = g.state;
    const auto& area = g.tables().area;
    std::vector<int> out;
    for (int u = 0; u < MAX_UNITS; ++u) {
        const int pos = s.unit_pos[u];
        if (s.unit_side[u] == SIDE_MONSTER && s.unit_status[u] == ACTIVE && pos >= 0 && s.revealed[area[pos]]) {
            out.push_back(u);
        }
    }
    return out;
}

bool HeroLens::seen_square(const Game& g, const Value& xy) const {
    const int sq = square_of(xy);
    return sq >= 0 && area_revealed(g.tables().area[sq]);
}

bool HeroLens::sees(const Game& g, const Value& ref) const {
    if (!is_monster(ref)) return ref.kind != Value::NONE;
    auto it = where_.find(ref.s);
    return it != where_.end() && area_revealed(g.tables().area[it->second]);
}

int HeroLens::number_of(const std::string& ref) {
    const int uid = std::stoi(ref.substr(1));
    const int known = number(uid);
    return known >= 0 ? known : add_number(uid);
}

std::string HeroLens::name(const std::string& ref) { return "m" + std::to_string(number_of(ref)); }

int HeroLens::add_number(int uid) {
    const int k = static_cast<int>(numbers_.size());
    numbers_.emplace(uid, k);
    index_numbers();
    return k;
}

void HeroLens::index_numbers() {
    // the numbers by uid in a table when every uid is small (engine ids count up from 0), else none
    int top = -1;
    for (const auto& [uid, k] : numbers_) {
        if (uid < 0 || uid >= MAX_INDEXED_UID) {
            by_uid_.clear();
            return;
        }
        top = std::max(top, uid);
    }
    if (static_cast<int>(by_uid_.size()) <= top) by_uid_.resize(top + 1, -1);
    for (const auto& [uid, k] : numbers_) by_uid_[uid] = k;
}

int HeroLens::number(int uid) const {
    if (uid >= 0 && static_cast<size_t>(uid) < by_uid_.size()) return by_uid_[uid];
    if (uid >= 0 && !by_uid_.empty()) return -1;  // the table holds every number given
    auto it = numbers_.find(uid);
    return it == numbers_.end() ? -1 : it->second;
}

Value HeroLens::figure(const Game& g, const Value& ref) {
    if (!is_monster(ref)) return ref;
    return sees(g, ref) ? Value(name(ref.s)) : Value();
}

void HeroRules::index() {
    types.clear();
    std::set<std::string> names = public_types;
    for (const auto& [type, field] : about) names.insert(type);
    for (const auto& [type, keys] : figures_of) names.insert(type);
    for (const char* tracked : {"move", "spawn", "reveal", "slain", "roll"}) names.insert(tracked);
    for (const std::string& type : names) {
        EventType info;
        if (type == "move") info.kind = EventType::MOVE;
        if (type == "spawn") info.kind = EventType::SPAWN;
        if (type == "reveal") info.kind = EventType::REVEAL;
        if (type == "slain") info.kind = EventType::SLAIN;
        if (type == "roll") info.kind = EventType::ROLL;
        info.is_public = public_types.count(type) > 0;
        if (auto it = about.find(type); it != about.end()) {
            info.has_about = true;
            info.about = it->second;
        }
        auto own = figures_of.find(type);
        info.keys = own != figures_of.end() ? own->second : figure_fields;
        for (int moved = 0; moved < 2; ++moved) {
            for (int placed = 0; placed < 2; ++placed) {
                info.rewrites[moved][placed] = std::any_of(info.keys.begin(), info.keys.end(), [&](const std::string& key) {
                    return rewritten(key, type, moved != 0, placed != 0);
                });
            }
        }
        types.emplace(type, std::move(info));
    }
    other = EventType{};
    other.keys = figure_fields;
}

HeroRules make_hero_rules(std::set<std::string> public_types, std::map<std::string, std::string> about,
                          std::set<std::string> open_checks, std::vector<std::string> figure_fields,
                          std::map<std::string, std::vector<std::string>> figures_of) {
    HeroRules rules{std::move(public_types), std::move(about), std::move(open_checks), std::move(figure_fields),
                    std::move(figures_of)};
    rules.index();
    return rules;
}

bool HeroLens::shown(const Game& g, const Value& event, const HeroRules::EventType& info) const {
    if (info.is_public) return true;
    if (!info.has_about) return false;  // a type no rule names reaches nobody
    if (info.kind == HeroRules::EventType::ROLL && !rules_->open_checks.count(need(event, "check").s)) {
        return false;  // the DM's secret rolls (R-TRAP-03)
    }
    if (info.kind == HeroRules::EventType::MOVE) {
        return !is_monster(need(event, "unit")) || seen_square(g, need(event, "from")) || seen_square(g, need(event, "to"));
    }
    if (info.kind == HeroRules::EventType::SPAWN) {
        const Value* side = need(event, "unit").get("side");
        return (side != nullptr && side->kind == Value::STR && side->s == "hero") || seen_square(g, need(event, "at"));
    }
    const Value& subject = need(event, info.about.c_str());
    if (subject.kind == Value::LIST) {
        return std::any_of(subject.list.begin(), subject.list.end(), [&](const Value& ref) { return sees(g, ref); });
    }
    return sees(g, subject) || (subject.kind == Value::STR && subject.s == "dm");
}

std::optional<Value> HeroLens::see(const Game& g, const Value& event) {
    const HeroRules::EventType& info = rules_->type(type_of(event));
    std::optional<Value> out;
    if (shown(g, event, info)) out = redact(g, event);
    track(g, event, info);
    if (info.kind == HeroRules::EventType::REVEAL) unnamed_possible = true;
    return out;
}

void HeroLens::fold(const Game& g, const Value& event) {
    const HeroRules::EventType& info = rules_->type(type_of(event));
    if (shown(g, event, info)) name_figures(g, event, info);
    track(g, event, info);
    if (info.kind == HeroRules::EventType::REVEAL) unnamed_possible = true;
}

void HeroLens::name_figures(const Game& g, const Value& event, const HeroRules::EventType& info) {
    // the names redact() gives, in its order, read from the event itself
    if (info.kind == HeroRules::EventType::SPAWN) {
        const Value& unit = need(event, "unit");
        const Value* side = unit.get("side");
        if (side != nullptr && side->kind == Value::STR && side->s == "monster") number_of(need(unit, "id").s);
        return;
    }
    const bool moved = info.kind == HeroRules::EventType::MOVE && is_monster(need(event, "unit"));
    const std::vector<std::string>& keys = info.keys;
    // a figure field that redact() rewrites before naming the figures (none of knowledge.py's
    // tables has one): its copy names them, as see() does
    const bool placed = info.rewrites[moved][0] != info.rewrites[moved][1] && event.get("event") != nullptr;
    if (info.rewrites[moved][placed]) {
        redact(g, event);
        return;
    }
    if (moved) number_of(event.get("unit")->s);
    auto name_seen = [&](const Value& ref) {
        if (is_monster(ref) && sees(g, ref)) number_of(ref.s);
    };
    // the event's fields found by one pass over them (a key compared whole only when its length and
    // first letter match), then named in the keys' order
    constexpr size_t MAX_KEYS = 32;
    const Value* found[MAX_KEYS] = {};
    const size_t n_keys = keys.size();
    if (n_keys > MAX_KEYS || event.kind != Value::OBJECT) {
        for (const std::string& key : keys) {
            const Value* value = event.get(key);
            if (value == nullptr) continue;
            if (value->kind == Value::LIST) {
                for (const Value& ref : value->list) name_seen(ref);
            } else {
                name_seen(*value);
            }
        }
        return;
    }
    for (const auto& [field, value] : event.object) {
        for (size_t k = 0; k < n_keys; ++k) {
            const std::string& key = keys[k];
            if (found[k] == nullptr && key.size() == field.size() && !field.empty() && key[0] == field[0] && key == field) {
                found[k] = &value;  // the first field of that name, as get() finds it
            }
        }
    }
    for (size_t k = 0; k < n_keys; ++k) {
        const Value* value = found[k];
        if (value == nullptr) continue;
        if (value->kind == Value::LIST) {
            for (const Value& ref : value->list) name_seen(ref);
        } else {
            name_seen(*value);
        }
    }
}

void HeroLens::track(const Game& g, const Value& event, const HeroRules::EventType& info) {
    const HeroRules::EventType::Kind kind = info.kind;
    if (kind == HeroRules::EventType::REVEAL) {
        const Value* area = event.get("area");
        const int a = area != nullptr && area->kind == Value::STR ? area_index(g, area->s) : -1;
        if (a >= 0) {
            revealed_names_.insert(area->s);
            if (revealed_.size() <= static_cast<size_t>(a)) revealed_.resize(a + 1, 0);
            revealed_[a] = 1;
        }
    } else if (kind == HeroRules::EventType::SPAWN) {
        const Value& unit = need(event, "unit");
        const Value* side = unit.get("side");
        if (side != nullptr && side->kind == Value::STR && side->s == "monster") {
            where_[need(unit, "id").s] = square_of(need(event, "at"));
        }
    } else if (kind == HeroRules::EventType::MOVE) {
        const Value& unit = need(event, "unit");
        if (is_monster(unit)) where_[unit.s] = square_of(need(event, "to"));
    } else if (kind == HeroRules::EventType::SLAIN) {
        const Value* unit = event.get("unit");
        if (unit != nullptr && unit->kind == Value::STR) {
            where_.erase(unit->s);
            const Value* killers = event.get("killers");
            bool by_hero = false;
            if (killers != nullptr && killers->kind == Value::LIST) {
                for (const Value& k : killers->list) by_hero |= k.kind == Value::STR && k.s.rfind("hero_", 0) == 0;
            }
            slain_[unit->s] = by_hero;
        }
    }
}

Value HeroLens::redact(const Game& g, const Value& event) {
    const std::string kind = type_of(event);
    Value out = event;
    if (kind == "setup") {
        erase(out, "seed");
    } else if (kind == "spawn") {
        Value& unit = const_cast<Value&>(need(out, "unit"));
        const Value* side = unit.get("side");
        if (side != nullptr && side->kind == Value::STR && side->s == "monster") unit.set("id", name(need(unit, "id").s));
    } else if (kind == "move" && is_monster(need(out, "unit"))) {
        out.set("unit", name(out.get("unit")->s));
    }
    if ((kind == "door_opened" || kind == "secret_door") && out.get("door") != nullptr) erase(out, "door");
    if (const Value* e = out.get("event"); e != nullptr) {
        const int index = static_cast<int>(e->i);
        erase(out, "event");
        const auto& events = g.adventure().events;
        const std::string area = events.at(index).area;
        int rank = 0;
        for (int k = 0; k < index; ++k) rank += events[k].area == area;
        out.set("area", area);
        out.set("area_event", rank);
    }
    const Value* item = out.get("item");
    if (out.get("card") != nullptr && item != nullptr && item->kind == Value::INT && item->i >= 0 &&
        item->i < MAX_ITEMS && !g.state.item_known[item->i]) {
        out.set("card", Value());
    }
    if (kind == "spawn") return out;
    auto own = rules_->figures_of.find(kind);
    const std::vector<std::string>& keys = own != rules_->figures_of.end() ? own->second : rules_->figure_fields;
    for (const std::string& key : keys) {
        Value* value = const_cast<Value*>(out.get(key));
        if (value == nullptr) continue;
        if (value->kind == Value::LIST) {
            Value kept = Value::empty_list();
            for (const Value& ref : value->list) {
                Value shown = figure(g, ref);
                if (shown.kind != Value::NONE) kept.push(std::move(shown));
            }
            *value = std::move(kept);
        } else {
            *value = figure(g, *value);
        }
    }
    return out;
}

void HeroLens::name_unnamed(const Game& g) {
    if (!unnamed_possible) return;
    unnamed_possible = false;
    const State& s = g.state;
    std::vector<int> unnamed;
    for (int u : monsters_in_sight(g)) {
        if (number(s.unit_uid[u]) < 0) unnamed.push_back(u);
    }
    std::stable_sort(unnamed.begin(), unnamed.end(), [&](int a, int b) { return s.unit_pos[a] < s.unit_pos[b]; });
    for (int u : unnamed) add_number(s.unit_uid[u]);
}

std::deque<std::pair<size_t, Value>>::const_iterator ShownEvents::from(size_t start) const {
    return std::lower_bound(events.begin(), events.end(), start,
                            [](const std::pair<size_t, Value>& e, size_t i) { return e.first < i; });
}

void fold_log(HeroLens& lens, const Game& g, size_t start, ShownEvents* shown) {
    size_t index = start;
    g.log_events.visit_from(start, [&](const Value& event) {
        if (shown == nullptr) {
            lens.fold(g, event);
        } else {
            std::optional<Value> seen = lens.see(g, event);
            if (seen) shown->events.emplace_back(index, std::move(*seen));
        }
        ++index;
    });
    lens.name_unnamed(g);
}

}  // namespace dungeon_core
