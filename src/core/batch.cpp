// The batched env's games stepped in the core (batch.hpp).
#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace dungeon_core {

// ------------------------------------------------------------------ numpy's PCG64 and its draw
uint64_t Pcg64::next64() {
    // PCG's 128-bit LCG step, then its XSL-RR output of the new state (numpy's pcg64_random_r)
    constexpr unsigned __int128 MULT =
        (static_cast<unsigned __int128>(0x2360ed051fc65da4ULL) << 64) | 0x4385df649fccf645ULL;
    state = state * MULT + inc;
    const uint64_t x = static_cast<uint64_t>(state >> 64) ^ static_cast<uint64_t>(state);
    const unsigned rot = static_cast<unsigned>(state >> 122);
    return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t Pcg64::next32() {
    // numpy hands out a 64-bit draw as two 32-bit halves, the low one first
    if (has_uint32) {
        has_uint32 = false;
        return uinteger;
    }
    const uint64_t next = next64();
    has_uint32 = true;
    uinteger = static_cast<uint32_t>(next >> 32);
    return static_cast<uint32_t>(next & 0xffffffffULL);
}

uint32_t Pcg64::below(uint32_t n) {
    // numpy's buffered_bounded_lemire_uint32 for the range [0, n - 1]
    if (n <= 1) return 0;
    uint64_t m = static_cast<uint64_t>(next32()) * n;
    uint32_t leftover = static_cast<uint32_t>(m);
    if (leftover < n) {
        const uint32_t threshold = (UINT32_MAX - (n - 1)) % n;
        while (leftover < threshold) {
            m = static_cast<uint64_t>(next32()) * n;
            leftover = static_cast<uint32_t>(m);
        }
    }
    return static_cast<uint32_t>(m >> 32);
}

// ------------------------------------------------------------------ the batch
RoleBatch::RoleBatch(int num_envs, int sides, const ObsLayout* layout, std::shared_ptr<const HeroRules> rules)
    : sides_(sides), layout_(layout), rules_(std::move(rules)) {
    if (num_envs < 1) throw std::invalid_argument("num_envs: expected at least 1, got " + std::to_string(num_envs));
    if (sides < HEROES_SIDE || sides > BOTH_SIDES) {
        throw std::invalid_argument("sides: expected 0 (heroes), 1 (dm) or 2 (both), got " + std::to_string(sides));
    }
    if (!layout) throw std::invalid_argument("layout: expected an observation layout");
    slots_.reserve(num_envs);
    for (int i = 0; i < num_envs; ++i) slots_.emplace_back(rules_);
}

RoleBatch::~RoleBatch() {
    if (workers_ && workers_->owner != static_cast<long>(getpid())) workers_.release();  // a forked child's: see step()
}

void RoleBatch::Workers::loop(int index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> held(lock);
    for (;;) {
        wake.wait(held, [&] { return stop || round != seen; });
        if (stop) return;
        seen = round;
        if (job == nullptr || index >= helpers) continue;  // woken after its step ended, or not asked
        const std::function<void()>* taken = job;
        ++busy;
        held.unlock();
        (*taken)();  // takes games until none is left (it catches each game's errors)
        held.lock();
        if (--busy == 0) done.notify_all();
    }
}

void RoleBatch::Workers::run(const std::function<void()>& step_job, int helpers) {
    {
        std::lock_guard<std::mutex> held(lock);
        while (static_cast<int>(threads.size()) < helpers) {
            const int index = static_cast<int>(threads.size());
            threads.emplace_back([this, index] { loop(index); });
        }
        job = &step_job;
        this->helpers = helpers;
        ++round;
    }
    wake.notify_all();
    step_job();
    std::unique_lock<std::mutex> held(lock);
    done.wait(held, [&] { return busy == 0; });
    job = nullptr;  // a thread that wakes from now on takes nothing
}

RoleBatch::Workers::~Workers() {
    {
        std::lock_guard<std::mutex> held(lock);
        stop = true;
    }
    wake.notify_all();
    for (std::thread& t : threads) t.join();
}

RoleBatch::Slot& RoleBatch::slot(int i) {
    if (i < 0 || i >= size()) throw std::out_of_range("game " + std::to_string(i) + ": the batch has " + std::to_string(size()));
    if (!slots_[i].engine) throw std::invalid_argument("game " + std::to_string(i) + " has no game yet: set() it first");
    return slots_[i];
}

void RoleBatch::set(int i, Engine* engine, const Pcg64& opponent) {
    if (i < 0 || i >= size()) throw std::out_of_range("game " + std::to_string(i) + ": the batch has " + std::to_string(size()));
    if (!engine) throw std::invalid_argument("engine: expected a core engine");
    check_layout(engine->game, *layout_);
    Slot& s = slots_[i];
    s.engine = engine;
    s.lens = HeroLens(rules_);
    s.folded = 0;
    s.opponent = opponent;
    if (sides_ != DM_SIDE) fold(s);  // the set-up's events, as the env's heroes' knowledge takes them in
}

int RoleBatch::seat_asked(const Game& g) {
    const State& s = g.state;
    const int unit = s.stack.back()[STACK_UNIT];
    return unit < s.n_heroes ? unit : -1;
}

bool RoleBatch::ours(const Game& g) const {
    if (sides_ == BOTH_SIDES) return true;
    return (seat_asked(g) >= 0) == (sides_ == HEROES_SIDE);
}

int RoleBatch::seat(int i) {
    const Game& g = slot(i).engine->game;
    if (g.over()) throw std::invalid_argument("game " + std::to_string(i) + " is over: it asks nobody");
    return seat_asked(g);
}

void RoleBatch::fold(Slot& s) {
    // the heroes' knowledge folds after every move, as the env's does (side_knowledge.after_apply)
    const Game& g = s.engine->game;
    size_t index = s.folded;
    g.log_events.visit_from(index, [&](const Value& event) {
        s.lens.fold(g, event);
        ++index;
    });
    s.lens.name_unnamed(g);
    s.folded = index;
}

void RoleBatch::apply(Slot& s, int action) {
    s.engine->game.apply(action);
    if (sides_ != DM_SIDE) fold(s);
}

SlotStatus RoleBatch::settle(Slot& s) {
    Game& g = s.engine->game;
    while (!g.over() && !ours(g)) {
        // RandomOpponent: numpy's choice among the mask's legal actions, in action order
        const std::vector<int>& legal = g.legal_actions();
        if (legal.empty()) throw std::logic_error("the game asks a decision with no legal action");
        s.legal.assign(legal.begin(), legal.end());
        std::sort(s.legal.begin(), s.legal.end());
        s.legal.erase(std::unique(s.legal.begin(), s.legal.end()), s.legal.end());
        apply(s, s.legal[s.opponent.below(static_cast<uint32_t>(s.legal.size()))]);
    }
    return g.over() ? ENDED : ASKED;
}

SlotStatus RoleBatch::settle(int i) { return settle(slot(i)); }

SlotStatus RoleBatch::step_one(Slot& s, int64_t action) {
    Game& g = s.engine->game;
    if (g.over()) throw std::logic_error("a game of the batch is over: it must be reset before it steps");
    const std::vector<int>& legal = g.legal_actions();
    if (std::find(legal.begin(), legal.end(), action) == legal.end()) return REFUSED;
    apply(s, static_cast<int>(action));
    return settle(s);
}

void RoleBatch::write(Slot& s, float* obs, int8_t* mask, int seat, bool to_act, bool traced) {
    Game& g = s.engine->game;
    const HeroSight sight = seat >= 0 ? hero_sight(g, s.lens) : HeroSight{};
    const int role = seat >= 0 ? 0 : 1;
    dungeon_core::observe(g, *layout_, obs, mask, N_ACTIONS, role, seat, to_act, g.max_turns, sight, &s.boards[role],
                          traced ? &s.trace : nullptr);
}

void RoleBatch::forget_rows() {
    rows_ = nullptr;
    for (Slot& s : slots_) s.trace.row = nullptr;
}

void RoleBatch::observe(int i, float* obs, int8_t* mask, int seat, bool to_act) {
    Slot& s = slot(i);
    const Game& g = s.engine->game;
    if (seat < -1 || seat >= g.state.n_heroes) {
        throw std::invalid_argument("seat: expected a hero's index below " + std::to_string(g.state.n_heroes) +
                                    " or -1 (the DM), got " + std::to_string(seat));
    }
    if ((seat >= 0) != (sides_ != DM_SIDE) && sides_ != BOTH_SIDES) {
        throw std::invalid_argument("seat " + std::to_string(seat) + " is not of the side the batch plays");
    }
    if (to_act && (g.over() || seat_asked(g) != seat)) {
        throw std::invalid_argument("game " + std::to_string(i) + " does not ask seat " + std::to_string(seat) + " anything");
    }
    // game i's own row keeps its trace; another buffer inside the rows would leave a trace wrong
    const size_t row = static_cast<size_t>(layout_->size);
    const bool own = rows_ != nullptr && obs == rows_ + row * i;
    if (!own && rows_ != nullptr && obs + row > rows_ && obs < rows_ + row * slots_.size()) forget_rows();
    write(s, obs, mask, seat, to_act, own);
}

void RoleBatch::step(const int64_t* actions, int8_t* status, float* obs, int8_t* masks, int64_t* seats, int threads) {
    const int n = size();
    for (int i = 0; i < n; ++i) slot(i);  // every game set, before any moves
    const size_t row = static_cast<size_t>(layout_->size);
    if (obs != rows_) {
        forget_rows();
        rows_ = obs;
    }
    std::vector<std::string> errors(n);
    std::atomic<int> next{0};  // the games are handed out one at a time: a slow game or thread holds no one up
    const std::function<void()> run = [&]() {
        for (int i = next++; i < n; i = next++) {
            try {
                if (actions[i] < 0) {
                    status[i] = SKIPPED;
                    continue;
                }
                Slot& s = slots_[i];
                status[i] = step_one(s, actions[i]);
                // the row: the seat asked next; at an end (or a refusal), the side's view of it, its first
                // hero's or the DM's; `seats`: the seat asked (the one that refused), -1 once over
                const Game& g = s.engine->game;
                const bool asked = status[i] == ASKED;
                if (seats) seats[i] = g.over() ? -1 : seat_asked(g);
                const int seat = asked ? seat_asked(g) : (sides_ == DM_SIDE ? -1 : 0);
                write(s, obs + row * i, masks + static_cast<size_t>(N_ACTIONS) * i, seat, asked, true);
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        }
    };
    threads = std::max(1, std::min(threads, n));
    if (threads == 1) {
        run();
    } else {
        if (workers_ && workers_->owner != static_cast<long>(getpid())) {
            // a forked child: the threads were its parent's, and their lock may have been held at the
            // fork; left untouched (never joined, never freed), and new ones made
            workers_.release();
        }
        if (!workers_) {
            workers_ = std::make_unique<Workers>();
            workers_->owner = static_cast<long>(getpid());
        }
        workers_->run(run, threads - 1);
    }
    for (int i = 0; i < n; ++i) {
        if (!errors[i].empty()) throw std::runtime_error("game " + std::to_string(i) + " of the batch: " + errors[i]);
    }
}

}  // namespace dungeon_core
