// _core.AecStep: the AEC env's step in the core (dungeon_env/aec_core.py). One call moves the game
// (the action checked and applied, the engine run on to the next decision), folds the heroes' lens
// over the new events and names the agent asked next with the decision and the figure its info
// names; another writes the observation and the mask of an agent into new arrays. The rules, the
// lens and the observation are the engine's, lens.hpp's and observe.hpp's; what is left to Python is
// the env's bookkeeping of the rare cases (rewards, ends, readers of the events).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bridge.hpp"
#include "lens.hpp"
#include "observe.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

template <typename T>
using Out = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

class AecStep {
public:
    AecStep(nb::object engine, nb::object layout, int max_turns, nb::object lens, nb::object shown, nb::list agents,
            nb::list decisions)
        : engine_obj_(std::move(engine)), layout_obj_(std::move(layout)), lens_obj_(std::move(lens)),
          shown_obj_(std::move(shown)), engine_(nb::cast<Engine*>(engine_obj_)),
          layout_(nb::cast<const ObsLayout*>(layout_obj_)), max_turns_(max_turns) {
        if (max_turns < 1) throw std::invalid_argument("max_turns: expected a positive int");
        lens_ = lens_obj_.is_none() ? nullptr : nb::cast<HeroLens*>(lens_obj_);
        shown_ = shown_obj_.is_none() ? nullptr : nb::cast<ShownEvents*>(shown_obj_);
        if ((lens_ == nullptr) != (shown_ == nullptr)) throw std::invalid_argument("lens, shown: give both or neither");
        const int n_heroes = engine_->game.state.n_heroes;
        if (static_cast<int>(agents.size()) != n_heroes + 1) {
            throw std::invalid_argument("agents: expected one per hero and the DM last (" + std::to_string(n_heroes + 1) + ")");
        }
        for (nb::handle a : agents) agents_.push_back(nb::borrow<nb::str>(a));
        for (nb::handle d : decisions) decisions_.push_back(nb::borrow<nb::str>(d));
        check_layout(engine_->game, *layout_);
        numpy_empty_ = nb::module_::import_("numpy").attr("empty");
        float32_ = nb::module_::import_("numpy").attr("float32");
        int8_ = nb::module_::import_("numpy").attr("int8");
    }

    // Apply `action` and fold the heroes' lens over its events: the shown ones kept in the store
    // (`keep_shown`), or folded without their redacted copies and the store emptied of every event
    // before the log's end (nobody reads them). (index of the first new event, the log's length,
    // then the agent asked, its decision and the figure named in its info; those three None once
    // the game is over). An illegal action raises ValueError and changes nothing.
    nb::tuple apply(int action, bool keep_shown) {
        Game& g = engine_->game;
        const size_t before = g.log_events.size();
        g.apply(action);
        const size_t now = g.log_events.size();
        if (lens_ != nullptr) {
            if (keep_shown) {
                fold_log(*lens_, g, before, shown_);
            } else {
                fold_log(*lens_, g, before, nullptr);
                shown_->drop_before(now);
            }
        }
        if (g.over()) return nb::make_tuple(before, now, nb::none(), nb::none(), nb::none());
        const State& s = g.state;
        if (s.stack.empty()) throw std::logic_error("the game goes on without a decision to ask");
        const int kind = s.stack.back()[STACK_KIND], unit = s.stack.back()[STACK_UNIT];
        if (kind < 0 || kind >= static_cast<int>(decisions_.size())) throw std::logic_error("a decision kind out of the table");
        if (unit < s.n_heroes) return nb::make_tuple(before, now, agents_[unit], decisions_[kind], agents_[unit]);
        const std::string label = "m" + std::to_string(s.unit_uid[unit]);
        return nb::make_tuple(before, now, agents_.back(), decisions_[kind], nb::str(label.c_str(), label.size()));
    }

    // {"observation": float32 vector, "action_mask": int8 vector}, new arrays, of hero `me` (role
    // 0) or the DM (role 1), the mask holding the legal actions if `to_act` (else zeros).
    nb::dict observe(int role, int me, bool to_act) {
        const ObsLayout& layout = *layout_;
        if (role != 0 && role != 1) throw std::invalid_argument("role: expected 0 (hero) or 1 (dm), got " + std::to_string(role));
        if (me < -1 || me >= layout.n_me) throw std::invalid_argument("me: expected -1 or a hero index, got " + std::to_string(me));
        nb::object out = numpy_empty_(layout.size, float32_);
        nb::object mask = numpy_empty_(static_cast<int>(N_ACTIONS), int8_);
        Out<float> obs = nb::cast<Out<float>>(out);
        Out<int8_t> act = nb::cast<Out<int8_t>>(mask);
        HeroSight sight;
        if (role == 0) {
            if (lens_ == nullptr) throw std::invalid_argument("a hero's observation needs the heroes' lens");
            sight = hero_sight(engine_->game, *lens_);
        }
        dungeon_core::observe(engine_->game, layout, obs.data(), act.data(), N_ACTIONS, role, me, to_act, max_turns_, sight);
        nb::dict d;
        d["observation"] = out;
        d["action_mask"] = mask;
        return d;
    }

    size_t n_events() const { return engine_->game.log_events.size(); }

private:
    nb::object engine_obj_, layout_obj_, lens_obj_, shown_obj_;  // kept alive while the step reads them
    Engine* engine_;
    const ObsLayout* layout_;
    HeroLens* lens_ = nullptr;
    ShownEvents* shown_ = nullptr;
    int max_turns_;
    std::vector<nb::str> agents_, decisions_;
    nb::object numpy_empty_, float32_, int8_;
};

}  // namespace

void bind_aec(nb::module_& m) {
    nb::class_<AecStep>(m, "AecStep",
                        "The AEC env's step of one game in the core: apply with the heroes' lens folded, and the "
                        "observation into new arrays (dungeon_env/aec_core.py).")
        .def(nb::init<nb::object, nb::object, int, nb::object, nb::object, nb::list, nb::list>(), "engine"_a, "layout"_a,
             "max_turns"_a, "lens"_a.none(), "shown"_a.none(), "agents"_a, "decisions"_a,
             "For `engine`'s game observed with `layout` (observation.core_layout), its heroes' `lens` folding into "
             "the store `shown` (both None: no heroes' knowledge), `agents` the agent of each seat (heroes, then the "
             "DM) and `decisions` the name of each decision kind.")
        .def("apply", &AecStep::apply, "action"_a, "keep_shown"_a,
             "Apply `action`, fold the heroes' lens over its events (keeping the shown ones in the store if "
             "`keep_shown`, else emptying the store): (first new event's index, the log's length, agent asked, "
             "decision, the figure named), the last three None once the game is over. ValueError for an illegal "
             "action, which changes nothing.")
        .def("observe", &AecStep::observe, "role"_a, "me"_a, "to_act"_a,
             "{'observation', 'action_mask'} as new arrays: hero `me` (role 0) or the DM (role 1, me -1), the mask "
             "holding the legal actions if `to_act`.")
        .def_prop_ro("n_events", &AecStep::n_events, "The length of the game's log.");
}

}  // namespace dungeon_core
