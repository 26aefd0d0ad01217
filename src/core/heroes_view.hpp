// The heroes' side view of a game made in the core: what sideview._redact does for a playable view
// (the monsters heroes do not see emptied, the heroes' monster numbers, the known doors, traps,
// guards and room events re-indexed, face-down cards as their deck's placeholder, ...), written into
// a new Game that plays with the view's own content. It belongs to the side knowledge (the engine
// layer); sideview.py's _redact stays the reference (tests/test_heroes_view_core.py).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "game.hpp"

namespace dungeon_core {

// What one public configuration of an adventure gives every view made at it (sideview._HeroTables):
// the real index of each view door, trap, guard and room event, the view's content (built from the
// view's tables), and the catalogue's sizes the view's placeholders follow. Kept by Python in the
// view tables' cache, so a view costs no look-up of these.
struct HeroTablesMaps {
    std::vector<int> doors, traps, guards, events;
    std::vector<int> event_map;  // real room event -> view index, or -1
    std::shared_ptr<const Content> content;  // the view's
    int item_base = 0;   // the real catalogue's item cards: the placeholders follow them
    int spell_base = 0;  // ... and spells
};

// What the heroes know of the figures (side_knowledge.HeroKnowledge): the slots of the monsters they
// see, engine monster id -> their number of it, and per engine label m<id> whether a hero was among
// the killers of its last slain event.
struct HeroSight {
    std::vector<int> visible;
    std::unordered_map<int, int> numbers;
    std::unordered_map<std::string, bool> slain;
};

// The heroes' view of `g` as a new game on `maps.content` (state, max_turns, hero_ids, moves; the
// log and the dice are left empty for the caller).
Game heroes_view(const Game& g, const HeroTablesMaps& maps, const HeroSight& sight);

// The view's content for reading only (the scripted heroes' compiled choice reads a view and never
// plays on it), made in a fraction of a playable view's: `base` is the adventure's content with the
// view's catalogue (the placeholders appended) and the public objectives, built once per adventure;
// the known doors, traps, guards and room events are picked from it by their real indices (with
// `event_doors`, each kept room event's door as a view index or -1), the board is the view's (`board`,
// `wall`, `edge_door`, `furniture`, `blockage`: the view tables' own arrays). It holds no line of
// sight (nor the areas past the walls): the rules that read sight must never run on it.
std::shared_ptr<const Content> reading_content(const Content& base, const std::vector<int>& doors,
                                               const std::vector<int>& traps, const std::vector<int>& guards,
                                               const std::vector<int>& events, const Board& board,
                                               std::vector<uint8_t> wall, std::vector<int16_t> edge_door,
                                               std::vector<uint8_t> furniture, std::vector<uint8_t> blockage);

}  // namespace dungeon_core
