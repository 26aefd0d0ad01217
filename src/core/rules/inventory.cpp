// Inventory basics (dungeon_env/engine/inventory.py): the five decks, item slots, who holds what,
// identification (IDENT). Item slots: item_card (-1: a free slot), item_holder (a unit, NOBODY for an
// item lying unclaimed, DESTROYED for a used-up or lost card), item_known (face up), item_locked (an
// Identify roll of 1: no more tries until the adventure ends, ruling A-43).
#include "inventory.hpp"

#include <algorithm>
#include <stdexcept>

#include "units.hpp"

namespace dungeon_core::inventory {

namespace {

// Potions, Scrolls and Magic Items are drawn face-down (R-IDENT-01): ItemCard.face_down.
bool face_down(const ItemCard& card) {
    return card.deck == "potions" || card.deck == "spells" || card.deck == "magic_items";
}

// DECKS.index(deck)
int deck_index(const Game& g, const std::string& deck) {
    const auto& decks = g.content->decks;
    const auto it = std::find(decks.begin(), decks.end(), deck);
    if (it == decks.end()) throw std::invalid_argument("'" + deck + "' is not in DECKS");
    return static_cast<int>(it - decks.begin());
}

// Fisher-Yates with d6-made uniform draws.
void shuffle(Game& g, std::vector<int>& cards) {
    for (int i = static_cast<int>(cards.size()) - 1; i > 0; --i) {
        const int j = uniform(g, i + 1);
        std::swap(cards[i], cards[j]);
    }
}

}  // namespace

// A uniform integer in 0..n-1 from d6 rolls only (R-BOARD-03): base-6 digits, redrawn when they fall
// above the largest multiple of n.
int uniform(Game& g, int n) {
    if (n <= 1) return 0;
    int digits = 1;
    long long span = 6;
    while (span < n) {
        ++digits;
        span *= 6;
    }
    const long long limit = span - span % n;
    while (true) {
        long long value = 0;
        for (int k = 0; k < digits; ++k) value = value * 6 + g.dice.d6(DECKS) - 1;
        if (value < limit) return static_cast<int>(value % n);
    }
}

// Build and shuffle the five decks, then hand the heroes the items they carry in (per hero slot, a
// list of (card id, known)).
void setup_items(Game& g, const std::optional<std::vector<std::vector<std::pair<std::string, bool>>>>& carried) {
    State& s = g.state;
    const auto& decks = g.content->decks;
    std::vector<std::vector<int>> unshuffled(decks.size());  // each card's copies, in catalogue order
    const auto& cards = g.content->item_cards;
    for (size_t i = 0; i < cards.size(); ++i) {
        const auto it = std::find(decks.begin(), decks.end(), cards[i].deck);
        if (it == decks.end()) continue;
        unshuffled[it - decks.begin()].insert(unshuffled[it - decks.begin()].end(), cards[i].copies, static_cast<int>(i));
    }
    // The shuffle draws from the "decks" stream itself, never from faces a test forced (those are
    // meant for the game's checks; a test that needs a deck order sets state.deck_cards).
    {
        Unforced unforced(g.dice);
        for (size_t d = 0; d < decks.size(); ++d) {
            std::vector<int>& deck = unshuffled[d];
            shuffle(g, deck);
            const int n = std::min(static_cast<int>(deck.size()), MAX_DECK);
            for (int k = 0; k < MAX_DECK; ++k) s.deck(d, k) = k < n ? deck[k] : -1;
            s.deck_next[d] = 0;
        }
    }
    if (!carried) return;
    for (size_t u = 0; u < carried->size(); ++u) {
        for (const auto& [card_id, known] : (*carried)[u]) {
            const int slot = create(g, card_id);
            if (slot >= 0) {
                s.item_known[slot] = known || !face_down(cards[g.content->item_index.at(card_id)]);
                give(g, slot, static_cast<int>(u));
            }
        }
    }
}

// A new item slot holding a copy of the card (face down for potions, scrolls and magic items,
// R-IDENT-01), held by nobody; -1 if every slot is taken.
int create(Game& g, const std::string& card_id) {
    State& s = g.state;
    int slot = -1;
    for (int i = 0; i < MAX_ITEMS && slot < 0; ++i) {
        if (s.item_card[i] < 0) slot = i;
    }
    if (slot < 0) return -1;
    const int card = g.content->item_index.at(card_id);
    s.item_card[slot] = card;
    s.item_holder[slot] = NOBODY;
    s.item_known[slot] = !face_down(g.content->item_cards[card]);
    s.item_locked[slot] = false;
    s.item_claimed[slot] = false;
    s.item_used_turn[slot] = 0;
    return slot;
}

// The top card of the deck as a new item slot held by nobody; -1 if the deck is empty (decks are not
// reshuffled).
int draw(Game& g, const std::string& deck) {
    State& s = g.state;
    const int d = deck_index(g, deck);
    const int nxt = s.deck_next[d];
    if (nxt >= MAX_DECK || s.deck(d, nxt) < 0) return -1;
    const int slot = create(g, g.content->item_cards[s.deck(d, nxt)].id);
    if (slot >= 0) {
        s.deck_next[d] = nxt + 1;
        g.log(Value::obj({{"type", "draw"},
                          {"deck", deck},
                          {"item", slot},
                          {"card", g.content->item_cards[s.item_card[slot]].id},
                          {"turn", s.turn}}));
    }
    return slot;
}

// The unit's items in slot order (ITEM_k is the k-th).
std::vector<int> held(Game& g, int u) {
    const int16_t* holder = g.state.item_holder.data();
    int n = 0;  // counted first, without branches: most units hold nothing, and then nothing is allocated
    for (int i = 0; i < MAX_ITEMS; ++i) n += holder[i] == u;
    std::vector<int> out;
    if (n == 0) return out;
    out.reserve(n);
    for (int i = 0; i < MAX_ITEMS; ++i) {
        if (holder[i] == u) out.push_back(i);
    }
    return out;
}

// Room for one more item: at most rules.max_items (ruling D-M17).
bool can_hold(Game& g, int u) { return static_cast<int>(held(g, u).size()) < g.rules().max_items; }

// False (nothing changes) if the unit already holds the most it can.
bool give(Game& g, int item, int unit) {
    if (!can_hold(g, unit)) return false;
    g.state.item_holder[item] = unit;
    if (unit < g.state.n_heroes) g.state.item_claimed[item] = true;  // a hero has held it (claim objectives)
    return true;
}

void destroy(Game& g, int item) { g.state.item_holder[item] = DESTROYED; }

const ItemCard& card_of(Game& g, int item) { return g.content->item_cards[g.state.item_card[item]]; }

// The item turns face up (identified).
void reveal(Game& g, int item, const std::string& how) {
    State& s = g.state;
    if (s.item_known[item]) return;
    s.item_known[item] = true;
    s.item_locked[item] = false;
    const int holder = s.item_holder[item];
    g.log(Value::obj({{"type", "item_identified"},
                      {"item", item},
                      {"card", card_of(g, item).id},
                      {"unit", holder >= 0 ? Value(units::label(g, holder)) : Value()},
                      {"how", how},
                      {"turn", s.turn}}));
}

// Every item still unidentified is identified at the adventure's end (R-IDENT-04, R-END-04).
void end_adventure(Game& g) {
    State& s = g.state;
    for (int item = 0; item < MAX_ITEMS; ++item) {
        if (s.item_card[item] >= 0 && s.item_holder[item] != DESTROYED) reveal(g, item, "adventure_end");
    }
    s.item_locked.fill(false);
}

}  // namespace dungeon_core::inventory
