// GENERATED while the rules are ported (docs/CORE.md): a weak definition of every rule function
// declared in src/core/rules/*.hpp that throws NotPorted; a module's real definition replaces it
// at link time. Deleted when the port is complete.
#include <stdexcept>

#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wreturn-type"

#include "abilities.hpp"
#include "board.hpp"
#include "casting.hpp"
#include "combat.hpp"
#include "decisions.hpp"
#include "effects.hpp"
#include "encounters.hpp"
#include "explore.hpp"
#include "inventory.hpp"
#include "items.hpp"
#include "mental.hpp"
#include "movement.hpp"
#include "objectives.hpp"
#include "spells.hpp"
#include "trade.hpp"
#include "traps.hpp"
#include "turn.hpp"
#include "units.hpp"
#include "visibility.hpp"

namespace dungeon_core {
struct NotPorted : std::logic_error {
    explicit NotPorted(const char* what) : std::logic_error(std::string(what) + " is not ported to the core yet") {}
};
}  // namespace dungeon_core

namespace dungeon_core::abilities { __attribute__((weak)) std::vector<Ability> card_abilities(Game& g, int h) { throw dungeon_core::NotPorted("abilities.card_abilities"); } }
namespace dungeon_core::abilities { __attribute__((weak)) bool ready(Game& g, int h, int k) { throw dungeon_core::NotPorted("abilities.ready"); } }
namespace dungeon_core::abilities { __attribute__((weak)) std::vector<std::pair<int, int>> ready_pairs(Game& g) { throw dungeon_core::NotPorted("abilities.ready_pairs"); } }
namespace dungeon_core::abilities { __attribute__((weak)) std::vector<int> ability_actions(Game& g, int h, const std::string& when) { throw dungeon_core::NotPorted("abilities.ability_actions"); } }
namespace dungeon_core::abilities { __attribute__((weak)) void use(Game& g, int h, int k, const std::string& when) { throw dungeon_core::NotPorted("abilities.use"); } }
namespace dungeon_core::abilities { __attribute__((weak)) std::vector<int> targets(Game& g, int h) { throw dungeon_core::NotPorted("abilities.targets"); } }
namespace dungeon_core::abilities { __attribute__((weak)) void land_on(Game& g, int unit, int k, int target) { throw dungeon_core::NotPorted("abilities.land_on"); } }
namespace dungeon_core::board { __attribute__((weak)) int open_side(Game& g, int sq, int d) { throw dungeon_core::NotPorted("board.open_side"); } }
namespace dungeon_core::board { __attribute__((weak)) std::vector<int> open_neighbours(Game& g, int sq) { throw dungeon_core::NotPorted("board.open_neighbours"); } }
namespace dungeon_core::board { __attribute__((weak)) bool next_to(Game& g, int a, int b) { throw dungeon_core::NotPorted("board.next_to"); } }
namespace dungeon_core::board { __attribute__((weak)) bool free(Game& g, int sq) { throw dungeon_core::NotPorted("board.free"); } }
namespace dungeon_core::board { __attribute__((weak)) bool is_corpse(Game& g, int sq) { throw dungeon_core::NotPorted("board.is_corpse"); } }
namespace dungeon_core::board { __attribute__((weak)) std::vector<int> heroes_beside(Game& g, int h) { throw dungeon_core::NotPorted("board.heroes_beside"); } }
namespace dungeon_core::board { __attribute__((weak)) std::vector<int> trap_squares(Game& g) { throw dungeon_core::NotPorted("board.trap_squares"); } }
namespace dungeon_core::board { __attribute__((weak)) int trap_at(Game& g, int sq) { throw dungeon_core::NotPorted("board.trap_at"); } }
namespace dungeon_core::board { __attribute__((weak)) std::vector<int> traps_in_area(Game& g, int area) { throw dungeon_core::NotPorted("board.traps_in_area"); } }
namespace dungeon_core::board { __attribute__((weak)) bool is_hazard(Game& g, int i) { throw dungeon_core::NotPorted("board.is_hazard"); } }
namespace dungeon_core::board { __attribute__((weak)) bool blocks(Game& g, int sq) { throw dungeon_core::NotPorted("board.blocks"); } }
namespace dungeon_core::board { __attribute__((weak)) bool is_jumpable(Game& g, int sq) { throw dungeon_core::NotPorted("board.is_jumpable"); } }
namespace dungeon_core::casting { __attribute__((weak)) bool is_casting(Game& g, int h) { throw dungeon_core::NotPorted("casting.is_casting"); } }
namespace dungeon_core::casting { __attribute__((weak)) void fail_spell(Game& g, int h, const std::string& reason) { throw dungeon_core::NotPorted("casting.fail_spell"); } }
namespace dungeon_core::combat { __attribute__((weak)) std::vector<Row> gather_fights(Game& g) { throw dungeon_core::NotPorted("combat.gather_fights"); } }
namespace dungeon_core::combat { __attribute__((weak)) std::map<int, int> enemy_counts(/*TODO list[list[int]]*/ int fights) { throw dungeon_core::NotPorted("combat.enemy_counts"); } }
namespace dungeon_core::combat { __attribute__((weak)) bool begin_fighting(Game& g) { throw dungeon_core::NotPorted("combat.begin_fighting"); } }
namespace dungeon_core::combat { __attribute__((weak)) std::vector<int> legal_fight_stamina(Game& g, int u) { throw dungeon_core::NotPorted("combat.legal_fight_stamina"); } }
namespace dungeon_core::combat { __attribute__((weak)) void do_fight_stamina(Game& g, int u, int action) { throw dungeon_core::NotPorted("combat.do_fight_stamina"); } }
namespace dungeon_core::combat { __attribute__((weak)) Mods hero_modifiers(Game& g, int h, int enemies, int spend) { throw dungeon_core::NotPorted("combat.hero_modifiers"); } }
namespace dungeon_core::combat { __attribute__((weak)) Mods monster_modifiers(Game& g, int m, int enemies, int spend) { throw dungeon_core::NotPorted("combat.monster_modifiers"); } }
namespace dungeon_core::combat { __attribute__((weak)) void resolve_fight(Game& g, const std::vector<int>& row) { throw dungeon_core::NotPorted("combat.resolve_fight"); } }
namespace dungeon_core::combat { __attribute__((weak)) void apply_fight_damage(Game& g) { throw dungeon_core::NotPorted("combat.apply_fight_damage"); } }
namespace dungeon_core::decisions { __attribute__((weak)) std::vector<int> target_candidates(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("decisions.target_candidates"); } }
namespace dungeon_core::decisions { __attribute__((weak)) std::vector<int> legal(Game& g, int kind, int unit, int a, int b) { throw dungeon_core::NotPorted("decisions.legal"); } }
namespace dungeon_core::decisions { __attribute__((weak)) void apply(Game& g, int kind, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("decisions.apply"); } }
namespace dungeon_core::effects { __attribute__((weak)) int source_code(Game& g, const std::string& source) { throw dungeon_core::NotPorted("effects.source_code"); } }
namespace dungeon_core::effects { __attribute__((weak)) std::string source_name(Game& g, int code) { throw dungeon_core::NotPorted("effects.source_name"); } }
namespace dungeon_core::effects { __attribute__((weak)) Mods ability_codes(/*TODO tuple[HeroCard, ...]*/ int heroes) { throw dungeon_core::NotPorted("effects.ability_codes"); } }
namespace dungeon_core::effects { __attribute__((weak)) bool live(Game& g, const std::vector<int>& row) { throw dungeon_core::NotPorted("effects.live"); } }
namespace dungeon_core::effects { __attribute__((weak)) std::vector<Row> rows_of(Game& g, int u) { throw dungeon_core::NotPorted("effects.rows_of"); } }
namespace dungeon_core::effects { __attribute__((weak)) bool spell_in_play(Game& g, int spell) { throw dungeon_core::NotPorted("effects.spell_in_play"); } }
namespace dungeon_core::effects { __attribute__((weak)) bool asleep(Game& g, int u) { throw dungeon_core::NotPorted("effects.asleep"); } }
namespace dungeon_core::effects { __attribute__((weak)) void add_lasting(Game& g, const Effect& effect, const std::string& source, int target) { throw dungeon_core::NotPorted("effects.add_lasting"); } }
namespace dungeon_core::effects { __attribute__((weak)) void tick(Game& g) { throw dungeon_core::NotPorted("effects.tick"); } }
namespace dungeon_core::effects { __attribute__((weak)) std::vector<std::pair<std::string, int>> carried(Game& g, int u, const std::string& kind) { throw dungeon_core::NotPorted("effects.carried"); } }
namespace dungeon_core::effects { __attribute__((weak)) std::vector<std::pair<std::string, int>> innate(Game& g, int u, const std::string& kind) { throw dungeon_core::NotPorted("effects.innate"); } }
namespace dungeon_core::effects { __attribute__((weak)) Mods fight_modifiers(Game& g, int u) { throw dungeon_core::NotPorted("effects.fight_modifiers"); } }
namespace dungeon_core::effects { __attribute__((weak)) int damage_of(Game& g, int u, int target) { throw dungeon_core::NotPorted("effects.damage_of"); } }
namespace dungeon_core::effects { __attribute__((weak)) int move_bonus(Game& g, int u) { throw dungeon_core::NotPorted("effects.move_bonus"); } }
namespace dungeon_core::effects { __attribute__((weak)) Mods check_modifiers(Game& g, int u, const std::string& check) { throw dungeon_core::NotPorted("effects.check_modifiers"); } }
namespace dungeon_core::effects { __attribute__((weak)) bool usable_now(Game& g, const std::optional<Effect>& effect) { throw dungeon_core::NotPorted("effects.usable_now"); } }
namespace dungeon_core::effects { __attribute__((weak)) void raise_light(Game& g, int amount, const std::string& source) { throw dungeon_core::NotPorted("effects.raise_light"); } }
namespace dungeon_core::effects { __attribute__((weak)) std::vector<int> detect_traps_near(Game& g, int u, int radius, const std::string& source) { throw dungeon_core::NotPorted("effects.detect_traps_near"); } }
namespace dungeon_core::effects { __attribute__((weak)) void apply_effect(Game& g, const Effect& effect, const std::string& source, int target, int by) { throw dungeon_core::NotPorted("effects.apply_effect"); } }
namespace dungeon_core::encounters { __attribute__((weak)) void encounter(Game& g, const std::vector<int>& group, int how, bool unsurprisable) { throw dungeon_core::NotPorted("encounters.encounter"); } }
namespace dungeon_core::encounters { __attribute__((weak)) int surprise_lasts_until(Game& g) { throw dungeon_core::NotPorted("encounters.surprise_lasts_until"); } }
namespace dungeon_core::encounters { __attribute__((weak)) bool patrols_relevant(Game& g) { throw dungeon_core::NotPorted("encounters.patrols_relevant"); } }
namespace dungeon_core::encounters { __attribute__((weak)) int patrol_monsters_on_board(Game& g) { throw dungeon_core::NotPorted("encounters.patrol_monsters_on_board"); } }
namespace dungeon_core::encounters { __attribute__((weak)) bool patrols_paused(Game& g) { throw dungeon_core::NotPorted("encounters.patrols_paused"); } }
namespace dungeon_core::encounters { __attribute__((weak)) void roll_patrols(Game& g) { throw dungeon_core::NotPorted("encounters.roll_patrols"); } }
namespace dungeon_core::encounters { __attribute__((weak)) std::vector<int> spawn_patrol(Game& g, int area) { throw dungeon_core::NotPorted("encounters.spawn_patrol"); } }
namespace dungeon_core::encounters { __attribute__((weak)) void trigger_ambushes(Game& g, int h) { throw dungeon_core::NotPorted("encounters.trigger_ambushes"); } }
namespace dungeon_core::explore { __attribute__((weak)) void begin_explore(Game& g) { throw dungeon_core::NotPorted("explore.begin_explore"); } }
namespace dungeon_core::explore { __attribute__((weak)) void resume_explore(Game& g) { throw dungeon_core::NotPorted("explore.resume_explore"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> legal_explore_choice(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("explore.legal_explore_choice"); } }
namespace dungeon_core::explore { __attribute__((weak)) void do_explore_choice(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("explore.do_explore_choice"); } }
namespace dungeon_core::explore { __attribute__((weak)) void end_acts(Game& g, int unit) { throw dungeon_core::NotPorted("explore.end_acts"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> area_order(Game& g) { throw dungeon_core::NotPorted("explore.area_order"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> affected(Game& g, int e) { throw dungeon_core::NotPorted("explore.affected"); } }
namespace dungeon_core::explore { __attribute__((weak)) void fire_event(Game& g, int e) { throw dungeon_core::NotPorted("explore.fire_event"); } }
namespace dungeon_core::explore { __attribute__((weak)) bool trait_check(Game& g, int h, const std::string& trait) { throw dungeon_core::NotPorted("explore.trait_check"); } }
namespace dungeon_core::explore { __attribute__((weak)) void resolve_option(Game& g, int e, const EventOption& option, int h) { throw dungeon_core::NotPorted("explore.resolve_option"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> legal_event_choice(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("explore.legal_event_choice"); } }
namespace dungeon_core::explore { __attribute__((weak)) void do_event_choice(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("explore.do_event_choice"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> legal_claim(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("explore.legal_claim"); } }
namespace dungeon_core::explore { __attribute__((weak)) void do_claim(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("explore.do_claim"); } }
namespace dungeon_core::explore { __attribute__((weak)) std::vector<int> spawn_event_monsters(Game& g, int e) { throw dungeon_core::NotPorted("explore.spawn_event_monsters"); } }
namespace dungeon_core::explore { __attribute__((weak)) void reveal_door(Game& g, int door) { throw dungeon_core::NotPorted("explore.reveal_door"); } }
namespace dungeon_core::inventory { __attribute__((weak)) int uniform(Game& g, int n) { throw dungeon_core::NotPorted("inventory.uniform"); } }
namespace dungeon_core::inventory { __attribute__((weak)) void setup_items(Game& g, const std::optional<std::vector<std::vector<std::pair<std::string, bool>>>>& carried) { throw dungeon_core::NotPorted("inventory.setup_items"); } }
namespace dungeon_core::inventory { __attribute__((weak)) int create(Game& g, const std::string& card_id) { throw dungeon_core::NotPorted("inventory.create"); } }
namespace dungeon_core::inventory { __attribute__((weak)) int draw(Game& g, const std::string& deck) { throw dungeon_core::NotPorted("inventory.draw"); } }
namespace dungeon_core::inventory { __attribute__((weak)) std::vector<int> held(Game& g, int u) { throw dungeon_core::NotPorted("inventory.held"); } }
namespace dungeon_core::inventory { __attribute__((weak)) bool can_hold(Game& g, int u) { throw dungeon_core::NotPorted("inventory.can_hold"); } }
namespace dungeon_core::inventory { __attribute__((weak)) bool give(Game& g, int item, int unit) { throw dungeon_core::NotPorted("inventory.give"); } }
namespace dungeon_core::inventory { __attribute__((weak)) void destroy(Game& g, int item) { throw dungeon_core::NotPorted("inventory.destroy"); } }
namespace dungeon_core::inventory { __attribute__((weak)) const ItemCard& card_of(Game& g, int item) { throw dungeon_core::NotPorted("inventory.card_of"); } }
namespace dungeon_core::inventory { __attribute__((weak)) void reveal(Game& g, int item, const std::string& how) { throw dungeon_core::NotPorted("inventory.reveal"); } }
namespace dungeon_core::inventory { __attribute__((weak)) void end_adventure(Game& g) { throw dungeon_core::NotPorted("inventory.end_adventure"); } }
namespace dungeon_core::items { __attribute__((weak)) bool can_use(Game& g, int h, int item, const std::string& when) { throw dungeon_core::NotPorted("items.can_use"); } }
namespace dungeon_core::items { __attribute__((weak)) bool can_identify(Game& g, int h, int item) { throw dungeon_core::NotPorted("items.can_identify"); } }
namespace dungeon_core::items { __attribute__((weak)) std::vector<int> item_verbs(Game& g, int h, int item, const std::string& when) { throw dungeon_core::NotPorted("items.item_verbs"); } }
namespace dungeon_core::items { __attribute__((weak)) std::vector<int> item_actions(Game& g, int h, const std::string& when) { throw dungeon_core::NotPorted("items.item_actions"); } }
namespace dungeon_core::items { __attribute__((weak)) void decline(Game& g, int h, int item) { throw dungeon_core::NotPorted("items.decline"); } }
namespace dungeon_core::items { __attribute__((weak)) void pick_item(Game& g, int h, int k, const std::string& when) { throw dungeon_core::NotPorted("items.pick_item"); } }
namespace dungeon_core::items { __attribute__((weak)) std::vector<int> legal_item_verb(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("items.legal_item_verb"); } }
namespace dungeon_core::items { __attribute__((weak)) void do_item_verb(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("items.do_item_verb"); } }
namespace dungeon_core::items { __attribute__((weak)) void identify(Game& g, int h, int item) { throw dungeon_core::NotPorted("items.identify"); } }
namespace dungeon_core::items { __attribute__((weak)) void use_item(Game& g, int h, int item, const std::string& when) { throw dungeon_core::NotPorted("items.use_item"); } }
namespace dungeon_core::items { __attribute__((weak)) std::vector<int> item_targets(Game& g, int h) { throw dungeon_core::NotPorted("items.item_targets"); } }
namespace dungeon_core::items { __attribute__((weak)) void finish_use(Game& g, int h, int item, int target) { throw dungeon_core::NotPorted("items.finish_use"); } }
namespace dungeon_core::mental { __attribute__((weak)) void start(Game& g, int aggressor, int defender, int purpose) { throw dungeon_core::NotPorted("mental.start"); } }
namespace dungeon_core::mental { __attribute__((weak)) std::vector<int> legal_bid(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("mental.legal_bid"); } }
namespace dungeon_core::mental { __attribute__((weak)) std::optional<std::array<int, 4>> do_bid(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("mental.do_bid"); } }
namespace dungeon_core::mental { __attribute__((weak)) Mods modifiers(Game& g, int u, int bid) { throw dungeon_core::NotPorted("mental.modifiers"); } }
namespace dungeon_core::mental { __attribute__((weak)) int roll(Game& g, int a, int b, int a_bid, int b_bid) { throw dungeon_core::NotPorted("mental.roll"); } }
namespace dungeon_core::mental { __attribute__((weak)) std::vector<int> lashers(Game& g) { throw dungeon_core::NotPorted("mental.lashers"); } }
namespace dungeon_core::mental { __attribute__((weak)) int lash_target(Game& g, int m) { throw dungeon_core::NotPorted("mental.lash_target"); } }
namespace dungeon_core::mental { __attribute__((weak)) void monster_attack(Game& g, int m) { throw dungeon_core::NotPorted("mental.monster_attack"); } }
namespace dungeon_core::mental { __attribute__((weak)) void lash_lands(Game& g, int m, int h, int result) { throw dungeon_core::NotPorted("mental.lash_lands"); } }
namespace dungeon_core::movement { __attribute__((weak)) bool can_buy_move(Game& g, int u) { throw dungeon_core::NotPorted("movement.can_buy_move"); } }
namespace dungeon_core::movement { __attribute__((weak)) std::vector<int> legal_hero_move(Game& g, int h) { throw dungeon_core::NotPorted("movement.legal_hero_move"); } }
namespace dungeon_core::movement { __attribute__((weak)) std::vector<int> legal_hero_move_reference(Game& g, int h) { throw dungeon_core::NotPorted("movement.legal_hero_move_reference"); } }
namespace dungeon_core::movement { __attribute__((weak)) void do_hero_move(Game& g, int h, int action) { throw dungeon_core::NotPorted("movement.do_hero_move"); } }
namespace dungeon_core::movement { __attribute__((weak)) void end_movement(Game& g, int h) { throw dungeon_core::NotPorted("movement.end_movement"); } }
namespace dungeon_core::movement { __attribute__((weak)) void step(Game& g, int u, int to) { throw dungeon_core::NotPorted("movement.step"); } }
namespace dungeon_core::movement { __attribute__((weak)) void leave_dungeon(Game& g, int h) { throw dungeon_core::NotPorted("movement.leave_dungeon"); } }
namespace dungeon_core::movement { __attribute__((weak)) bool can_pay_evade(Game& g, int h) { throw dungeon_core::NotPorted("movement.can_pay_evade"); } }
namespace dungeon_core::movement { __attribute__((weak)) std::vector<int> legal_evade(Game& g, int h) { throw dungeon_core::NotPorted("movement.legal_evade"); } }
namespace dungeon_core::movement { __attribute__((weak)) void do_evade(Game& g, int h, int action) { throw dungeon_core::NotPorted("movement.do_evade"); } }
namespace dungeon_core::movement { __attribute__((weak)) std::vector<int> legal_monster_move(Game& g, int m) { throw dungeon_core::NotPorted("movement.legal_monster_move"); } }
namespace dungeon_core::movement { __attribute__((weak)) std::vector<int> legal_monster_move_reference(Game& g, int m) { throw dungeon_core::NotPorted("movement.legal_monster_move_reference"); } }
namespace dungeon_core::movement { __attribute__((weak)) void do_monster_move(Game& g, int m, int action) { throw dungeon_core::NotPorted("movement.do_monster_move"); } }
namespace dungeon_core::objectives { __attribute__((weak)) bool objective_met(Game& g, int index) { throw dungeon_core::NotPorted("objectives.objective_met"); } }
namespace dungeon_core::objectives { __attribute__((weak)) std::vector<Value> objectives_report(Game& g) { throw dungeon_core::NotPorted("objectives.objectives_report"); } }
namespace dungeon_core::objectives { __attribute__((weak)) bool goals_met(Game& g) { throw dungeon_core::NotPorted("objectives.goals_met"); } }
namespace dungeon_core::objectives { __attribute__((weak)) std::optional<std::pair<std::string, std::string>> ending(Game& g) { throw dungeon_core::NotPorted("objectives.ending"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool fits(/*TODO Spell*/ int spell, const std::string& when) { throw dungeon_core::NotPorted("spells.fits"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool at_once_allowed(Game& g, const std::string& when) { throw dungeon_core::NotPorted("spells.at_once_allowed"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> known(Game& g, int h) { throw dungeon_core::NotPorted("spells.known"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool may_cast(Game& g, int h) { throw dungeon_core::NotPorted("spells.may_cast"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> targets(Game& g, int h, int sp) { throw dungeon_core::NotPorted("spells.targets"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool castable(Game& g, int h, int sp, const std::string& when, bool scroll) { throw dungeon_core::NotPorted("spells.castable"); } }
namespace dungeon_core::spells { __attribute__((weak)) int spell_level_total(Game& g, int h) { throw dungeon_core::NotPorted("spells.spell_level_total"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> spell_actions(Game& g, int h, const std::string& when) { throw dungeon_core::NotPorted("spells.spell_actions"); } }
namespace dungeon_core::spells { __attribute__((weak)) void pick_spell(Game& g, int h, int k, const std::string& when) { throw dungeon_core::NotPorted("spells.pick_spell"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> legal_spell_verb(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("spells.legal_spell_verb"); } }
namespace dungeon_core::spells { __attribute__((weak)) void do_spell_verb(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("spells.do_spell_verb"); } }
namespace dungeon_core::spells { __attribute__((weak)) void forget(Game& g, int h, int sp, const std::string& reason) { throw dungeon_core::NotPorted("spells.forget"); } }
namespace dungeon_core::spells { __attribute__((weak)) int scroll_spell(Game& g, int item) { throw dungeon_core::NotPorted("spells.scroll_spell"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool can_cast_scroll(Game& g, int h, int item, const std::string& when) { throw dungeon_core::NotPorted("spells.can_cast_scroll"); } }
namespace dungeon_core::spells { __attribute__((weak)) void cast_scroll(Game& g, int h, int item, const std::string& when) { throw dungeon_core::NotPorted("spells.cast_scroll"); } }
namespace dungeon_core::spells { __attribute__((weak)) bool can_memorize(Game& g, int h, int item) { throw dungeon_core::NotPorted("spells.can_memorize"); } }
namespace dungeon_core::spells { __attribute__((weak)) void memorize(Game& g, int h, int item) { throw dungeon_core::NotPorted("spells.memorize"); } }
namespace dungeon_core::spells { __attribute__((weak)) void begin_spell_selection(Game& g) { throw dungeon_core::NotPorted("spells.begin_spell_selection"); } }
namespace dungeon_core::spells { __attribute__((weak)) void resume_spell_selection(Game& g) { throw dungeon_core::NotPorted("spells.resume_spell_selection"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> selection_options(Game& g, int h) { throw dungeon_core::NotPorted("spells.selection_options"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> legal_spell_select(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("spells.legal_spell_select"); } }
namespace dungeon_core::spells { __attribute__((weak)) void do_spell_select(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("spells.do_spell_select"); } }
namespace dungeon_core::spells { __attribute__((weak)) void fail(Game& g, int h, const std::string& reason) { throw dungeon_core::NotPorted("spells.fail"); } }
namespace dungeon_core::spells { __attribute__((weak)) void ask_cast_while_fighting(Game& g) { throw dungeon_core::NotPorted("spells.ask_cast_while_fighting"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> legal_cast_while_fighting(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("spells.legal_cast_while_fighting"); } }
namespace dungeon_core::spells { __attribute__((weak)) void do_cast_while_fighting(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("spells.do_cast_while_fighting"); } }
namespace dungeon_core::spells { __attribute__((weak)) void begin_spell_resolution(Game& g) { throw dungeon_core::NotPorted("spells.begin_spell_resolution"); } }
namespace dungeon_core::spells { __attribute__((weak)) void resume_spell_resolution(Game& g) { throw dungeon_core::NotPorted("spells.resume_spell_resolution"); } }
namespace dungeon_core::spells { __attribute__((weak)) void resolve_selected(Game& g, int h) { throw dungeon_core::NotPorted("spells.resolve_selected"); } }
namespace dungeon_core::spells { __attribute__((weak)) void begin_cast(Game& g, int h, int sp, int item, const std::string& when) { throw dungeon_core::NotPorted("spells.begin_cast"); } }
namespace dungeon_core::spells { __attribute__((weak)) std::vector<int> legal_cast_mode(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("spells.legal_cast_mode"); } }
namespace dungeon_core::spells { __attribute__((weak)) void do_cast_mode(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("spells.do_cast_mode"); } }
namespace dungeon_core::spells { __attribute__((weak)) void cast_at(Game& g, int unit, int sp, int target) { throw dungeon_core::NotPorted("spells.cast_at"); } }
namespace dungeon_core::spells { __attribute__((weak)) void after_mental(Game& g, int caster, int target, int result) { throw dungeon_core::NotPorted("spells.after_mental"); } }
namespace dungeon_core::spells { __attribute__((weak)) void backlash(Game& g, int h, int sp, int item) { throw dungeon_core::NotPorted("spells.backlash"); } }
namespace dungeon_core::spells { __attribute__((weak)) void end_adventure(Game& g) { throw dungeon_core::NotPorted("spells.end_adventure"); } }
namespace dungeon_core::trade { __attribute__((weak)) void begin_trade(Game& g) { throw dungeon_core::NotPorted("trade.begin_trade"); } }
namespace dungeon_core::trade { __attribute__((weak)) void resume_trade(Game& g) { throw dungeon_core::NotPorted("trade.resume_trade"); } }
namespace dungeon_core::trade { __attribute__((weak)) std::vector<int> receivers(Game& g, int h) { throw dungeon_core::NotPorted("trade.receivers"); } }
namespace dungeon_core::trade { __attribute__((weak)) std::vector<std::pair<int, int>> corpse_items(Game& g, int h) { throw dungeon_core::NotPorted("trade.corpse_items"); } }
namespace dungeon_core::trade { __attribute__((weak)) std::vector<int> legal_trade_act(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("trade.legal_trade_act"); } }
namespace dungeon_core::trade { __attribute__((weak)) std::vector<int> giving_items(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("trade.giving_items"); } }
namespace dungeon_core::trade { __attribute__((weak)) void do_trade_act(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("trade.do_trade_act"); } }
namespace dungeon_core::trade { __attribute__((weak)) void give_to(Game& g, int unit, int item, int to) { throw dungeon_core::NotPorted("trade.give_to"); } }
namespace dungeon_core::trade { __attribute__((weak)) void loot(Game& g, int unit, std::pair<int, int> found) { throw dungeon_core::NotPorted("trade.loot"); } }
namespace dungeon_core::traps { __attribute__((weak)) void on_enter(Game& g, int u, int sq) { throw dungeon_core::NotPorted("traps.on_enter"); } }
namespace dungeon_core::traps { __attribute__((weak)) void spring(Game& g, int i, int u, bool keep_hazard) { throw dungeon_core::NotPorted("traps.spring"); } }
namespace dungeon_core::traps { __attribute__((weak)) std::vector<int> detect_from(Game& g, int h, int limit) { throw dungeon_core::NotPorted("traps.detect_from"); } }
namespace dungeon_core::traps { __attribute__((weak)) void detect_traps(Game& g) { throw dungeon_core::NotPorted("traps.detect_traps"); } }
namespace dungeon_core::traps { __attribute__((weak)) bool room_detect(Game& g, int h, int area) { throw dungeon_core::NotPorted("traps.room_detect"); } }
namespace dungeon_core::traps { __attribute__((weak)) std::vector<int> disarm_actions(Game& g, int h) { throw dungeon_core::NotPorted("traps.disarm_actions"); } }
namespace dungeon_core::traps { __attribute__((weak)) std::vector<int> legal_disarm(Game& g, int unit, int a, int b) { throw dungeon_core::NotPorted("traps.legal_disarm"); } }
namespace dungeon_core::traps { __attribute__((weak)) void do_disarm(Game& g, int unit, int a, int b, int action) { throw dungeon_core::NotPorted("traps.do_disarm"); } }
namespace dungeon_core::turn { __attribute__((weak)) void begin(Game& g) { throw dungeon_core::NotPorted("turn.begin"); } }
namespace dungeon_core::turn { __attribute__((weak)) void resume(Game& g) { throw dungeon_core::NotPorted("turn.resume"); } }
namespace dungeon_core::turn { __attribute__((weak)) void turn_start(Game& g) { throw dungeon_core::NotPorted("turn.turn_start"); } }
namespace dungeon_core::turn { __attribute__((weak)) void hero_movement(Game& g) { throw dungeon_core::NotPorted("turn.hero_movement"); } }
namespace dungeon_core::turn { __attribute__((weak)) std::vector<int> handoffs(Game& g, int h) { throw dungeon_core::NotPorted("turn.handoffs"); } }
namespace dungeon_core::turn { __attribute__((weak)) void handoff(Game& g, int to) { throw dungeon_core::NotPorted("turn.handoff"); } }
namespace dungeon_core::turn { __attribute__((weak)) void spell_selection(Game& g) { throw dungeon_core::NotPorted("turn.spell_selection"); } }
namespace dungeon_core::turn { __attribute__((weak)) void monster_movement(Game& g) { throw dungeon_core::NotPorted("turn.monster_movement"); } }
namespace dungeon_core::turn { __attribute__((weak)) void evasion(Game& g) { throw dungeon_core::NotPorted("turn.evasion"); } }
namespace dungeon_core::turn { __attribute__((weak)) void fighting(Game& g) { throw dungeon_core::NotPorted("turn.fighting"); } }
namespace dungeon_core::turn { __attribute__((weak)) void spell_resolution(Game& g) { throw dungeon_core::NotPorted("turn.spell_resolution"); } }
namespace dungeon_core::turn { __attribute__((weak)) void turn_end(Game& g) { throw dungeon_core::NotPorted("turn.turn_end"); } }
namespace dungeon_core::units { __attribute__((weak)) std::string label(Game& g, int u) { throw dungeon_core::NotPorted("units.label"); } }
namespace dungeon_core::units { __attribute__((weak)) bool has_trait(Game& g, int u, const std::string& trait) { throw dungeon_core::NotPorted("units.has_trait"); } }
namespace dungeon_core::units { __attribute__((weak)) std::vector<std::string> traits_of(Game& g, int u) { throw dungeon_core::NotPorted("units.traits_of"); } }
namespace dungeon_core::units { __attribute__((weak)) Value unit_info(Game& g, int u) { throw dungeon_core::NotPorted("units.unit_info"); } }
namespace dungeon_core::units { __attribute__((weak)) void place_hero(Game& g, int u, int card_index, int sq) { throw dungeon_core::NotPorted("units.place_hero"); } }
namespace dungeon_core::units { __attribute__((weak)) int free_slot(Game& g) { throw dungeon_core::NotPorted("units.free_slot"); } }
namespace dungeon_core::units { __attribute__((weak)) int place_monster(Game& g, const std::string& monster_id, int sq, int how) { throw dungeon_core::NotPorted("units.place_monster"); } }
namespace dungeon_core::units { __attribute__((weak)) void put(Game& g, int u, int sq) { throw dungeon_core::NotPorted("units.put"); } }
namespace dungeon_core::units { __attribute__((weak)) void take_off(Game& g, int u) { throw dungeon_core::NotPorted("units.take_off"); } }
namespace dungeon_core::units { __attribute__((weak)) std::vector<int> active_heroes(Game& g) { throw dungeon_core::NotPorted("units.active_heroes"); } }
namespace dungeon_core::units { __attribute__((weak)) std::vector<int> active_monsters(Game& g) { throw dungeon_core::NotPorted("units.active_monsters"); } }
namespace dungeon_core::units { __attribute__((weak)) bool any_monster(Game& g) { throw dungeon_core::NotPorted("units.any_monster"); } }
namespace dungeon_core::units { __attribute__((weak)) void spend_stamina(Game& g, int u, int amount) { throw dungeon_core::NotPorted("units.spend_stamina"); } }
namespace dungeon_core::units { __attribute__((weak)) void gain_stamina(Game& g, int u, int amount) { throw dungeon_core::NotPorted("units.gain_stamina"); } }
namespace dungeon_core::units { __attribute__((weak)) void heal(Game& g, int u, int amount) { throw dungeon_core::NotPorted("units.heal"); } }
namespace dungeon_core::units { __attribute__((weak)) void hurt_hero(Game& g, int u, int amount, const std::string& source, const std::vector<std::string>& killers, std::optional<bool> down_before) { throw dungeon_core::NotPorted("units.hurt_hero"); } }
namespace dungeon_core::units { __attribute__((weak)) void deaths_door_roll(Game& g, int u, const std::vector<std::string>& killers) { throw dungeon_core::NotPorted("units.deaths_door_roll"); } }
namespace dungeon_core::units { __attribute__((weak)) void kill_hero(Game& g, int u, const std::vector<std::string>& killers) { throw dungeon_core::NotPorted("units.kill_hero"); } }
namespace dungeon_core::units { __attribute__((weak)) void slay_monster(Game& g, int u, const std::vector<std::string>& killers) { throw dungeon_core::NotPorted("units.slay_monster"); } }
namespace dungeon_core::units { __attribute__((weak)) bool together(Game& g, int u, int v) { throw dungeon_core::NotPorted("units.together"); } }
namespace dungeon_core::units { __attribute__((weak)) void check_corpses(Game& g) { throw dungeon_core::NotPorted("units.check_corpses"); } }
namespace dungeon_core::visibility { __attribute__((weak)) bool sees(Game& g, int a, int b) { throw dungeon_core::NotPorted("visibility.sees"); } }
namespace dungeon_core::visibility { __attribute__((weak)) std::vector<int> visible_areas(Game& g, int sq) { throw dungeon_core::NotPorted("visibility.visible_areas"); } }
namespace dungeon_core::visibility { __attribute__((weak)) void look(Game& g, const std::vector<int>& heroes, bool alert) { throw dungeon_core::NotPorted("visibility.look"); } }
namespace dungeon_core::visibility { __attribute__((weak)) void wake_guards(Game& g, const std::optional<std::vector<int>>& heroes) { throw dungeon_core::NotPorted("visibility.wake_guards"); } }
