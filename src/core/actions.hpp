// The flat action table, the decision kinds and the phases: engine/actions.py in the core (a test
// checks that the values agree).
#pragma once

namespace dungeon_core {

enum Action : int {
    MOVE_N = 0,
    MOVE_E = 1,
    MOVE_S = 2,
    MOVE_W = 3,
    JUMP_N = 4,
    JUMP_E = 5,
    JUMP_S = 6,
    JUMP_W = 7,
    DRAG_N = 8,
    DRAG_E = 9,
    DRAG_S = 10,
    DRAG_W = 11,
    EXTRA_MOVE = 12,
    END = 13,
    DEFER = 14,
    SPEND_0 = 15,
    SPEND_1 = 16,
    SPEND_2 = 17,
    SPEND_3 = 18,
    HANDOFF_0 = 19,
    HANDOFF_1 = 20,
    HANDOFF_2 = 21,
    HANDOFF_3 = 22,
    HANDOFF_4 = 23,
    ITEM_0 = 24,
    ITEM_1 = 25,
    ITEM_2 = 26,
    ITEM_3 = 27,
    ITEM_4 = 28,
    ITEM_5 = 29,
    ITEM_6 = 30,
    ITEM_7 = 31,
    ITEM_8 = 32,
    ITEM_9 = 33,
    ITEM_10 = 34,
    ITEM_11 = 35,
    SPELL_0 = 36,
    SPELL_1 = 37,
    SPELL_2 = 38,
    SPELL_3 = 39,
    SPELL_4 = 40,
    SPELL_5 = 41,
    SPELL_6 = 42,
    SPELL_7 = 43,
    USE = 44,
    MEMORIZE = 45,
    IDENTIFY = 46,
    FORGET = 47,
    GIVE = 48,
    LOOT = 49,
    TARGET_0 = 50,
    TARGET_1 = 51,
    TARGET_2 = 52,
    TARGET_3 = 53,
    TARGET_4 = 54,
    TARGET_5 = 55,
    TARGET_6 = 56,
    TARGET_7 = 57,
    TARGET_8 = 58,
    TARGET_9 = 59,
    NORMAL_CAST = 60,
    OVERCAST = 61,
    KEEP_CASTING = 62,
    LET_FAIL = 63,
    EXPLORE = 64,
    STAY = 65,
    CHOICE_0 = 66,
    CHOICE_1 = 67,
    CHOICE_2 = 68,
    CHOICE_3 = 69,
    TAKE = 70,
    PASS = 71,
    DISARM_N = 72,
    DISARM_E = 73,
    DISARM_S = 74,
    DISARM_W = 75,
    BACK = 76,
    ABILITY_0 = 77,
    ABILITY_1 = 78,
    N_ACTIONS
};

constexpr int MAX_ITEMS_HELD = 12, MAX_SPELLS_KNOWN = 8, MAX_TARGETS = 10, MAX_CHOICES = 4, MAX_ABILITIES = 2;
// what a CHOOSE_TARGET decision is choosing (its arg a); b carries the item or spell
enum { TARGET_SPELL = 0, TARGET_ITEM = 1, TARGET_GIVE = 2, TARGET_LOOT = 3, TARGET_ABILITY = 4 };
constexpr int DIR_DX[4] = {0, 1, 0, -1};
constexpr int DIR_DY[4] = {-1, 0, 1, 0};
constexpr const char* DIRECTIONS[4] = {"north", "east", "south", "west"};

// Decision::HERO_MOVE ... (a namespace, so that the names read as in Python and convert to int)
namespace Decision {
enum : int {
    HERO_MOVE = 0,
    HERO_EVADE = 1,
    MONSTER_MOVE = 2,
    FIGHT_STAMINA = 3,
    SPELL_SELECT = 4,
    CAST_WHILE_FIGHTING = 5,
    CAST_MODE = 6,
    CHOOSE_TARGET = 7,
    MENTAL_BID = 8,
    EXPLORE_CHOICE = 9,
    EVENT_CHOICE = 10,
    CLAIM_ITEM = 11,
    HERO_ACT = 12,
    ITEM_VERB = 13,
    SPELL_VERB = 14,
    DISARM = 15,
    N_DECISIONS
};
}  // namespace Decision

namespace Phase {
enum : int {
    TURN_START = 0,
    HERO_MOVEMENT = 1,
    SPELL_SELECTION = 2,
    MONSTER_MOVEMENT = 3,
    EVASION = 4,
    FIGHTING = 5,
    SPELL_RESOLUTION = 6,
    EXPLORE = 7,
    TRADE = 8,
    TURN_END = 9,
    GAME_OVER = 10,
    N_PHASES
};
}  // namespace Phase

constexpr const char* PHASE_NAMES[Phase::N_PHASES] = {"turn_start", "hero_movement", "spell_selection", "monster_movement", "evasion", "fighting", "spell_resolution", "explore", "trade", "turn_end", "game_over"};
constexpr const char* DECISION_NAMES[Decision::N_DECISIONS] = {"hero_move", "hero_evade", "monster_move", "fight_stamina", "spell_select", "cast_while_fighting", "cast_mode", "choose_target", "mental_bid", "explore_choice", "event_choice", "claim_item", "hero_act", "item_verb", "spell_verb", "disarm"};
constexpr const char* ACTION_NAMES[N_ACTIONS] = {"move_n", "move_e", "move_s", "move_w", "jump_n", "jump_e", "jump_s", "jump_w", "drag_n", "drag_e", "drag_s", "drag_w", "extra_move", "end", "defer", "spend_0", "spend_1", "spend_2", "spend_3", "handoff_0", "handoff_1", "handoff_2", "handoff_3", "handoff_4", "item_0", "item_1", "item_2", "item_3", "item_4", "item_5", "item_6", "item_7", "item_8", "item_9", "item_10", "item_11", "spell_0", "spell_1", "spell_2", "spell_3", "spell_4", "spell_5", "spell_6", "spell_7", "use", "memorize", "identify", "forget", "give", "loot", "target_0", "target_1", "target_2", "target_3", "target_4", "target_5", "target_6", "target_7", "target_8", "target_9", "normal_cast", "overcast", "keep_casting", "let_fail", "explore", "stay", "choice_0", "choice_1", "choice_2", "choice_3", "take", "pass", "disarm_n", "disarm_e", "disarm_s", "disarm_w", "back", "ability_0", "ability_1"};
// the moments of engine.actions.Moment (the content files' words)
constexpr const char* IN_COMBAT = "combat";
constexpr const char* IN_MOVEMENT = "movement";
constexpr const char* IN_EVASION = "evasion";
constexpr const char* IN_EXPLORE = "explore";
constexpr const char* IN_TRADE = "trade";

}  // namespace dungeon_core
