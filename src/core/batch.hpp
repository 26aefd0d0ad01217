// The batched env's games stepped in the core (dungeon_env/batched.py): N games, each step playing
// one action in every game and writing each game's observation and action mask into the batch's
// arrays, on several threads without the GIL. BatchedRoleEnv's games are of one side against the
// uniformly random opponent, whose moves follow the side's until the side is asked again;
// BatchedGames' are of both sides, each step one decision of the agent each game asks. Python keeps
// what is rare and owns its rules: the set-up of each episode (core set-up), the end of an episode
// (its rewards, final infos) and the illegal action's penalty.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "bridge.hpp"
#include "lens.hpp"
#include "observe.hpp"

namespace dungeon_core {

// numpy's PCG64 bit generator (its 128-bit state, increment and buffered 32-bit half) and the draw
// of `Generator.choice(n_items)`: the random opponent's (wrappers.RandomOpponent) choices, drawn as
// numpy draws them, so that a batched game plays exactly what a single env plays.
struct Pcg64 {
    unsigned __int128 state = 0, inc = 0;
    bool has_uint32 = false;
    uint32_t uinteger = 0;

    uint64_t next64();
    uint32_t next32();
    // an index in [0, n), n >= 1 (numpy's bounded Lemire draw on 32 bits, as `choice` makes it)
    uint32_t below(uint32_t n);
};

// What a game is after a step: asked (its row holds the side's next decision), ended (the row holds
// the side's view of the end), refused (the action was illegal: nothing moved; the row holds the
// side's view of the game, with no legal action), or skipped (its action was negative: it was not
// stepped and its row not written; the next-step autoreset starts its next episode instead).
enum SlotStatus : int8_t { ASKED = 0, ENDED = 1, REFUSED = 2, SKIPPED = 3 };

// the sides a batch plays: the heroes or the DM (against the random opponent), or both
enum BatchSides : int { HEROES_SIDE = 0, DM_SIDE = 1, BOTH_SIDES = 2 };

class RoleBatch {
public:
    // `sides`: BatchSides; when the heroes are played, their lens folds over every move (what their
    // observation shows of the monsters); `layout`: the adventure's observation layout.
    RoleBatch(int num_envs, int sides, const ObsLayout* layout, std::shared_ptr<const HeroRules> rules);
    ~RoleBatch();
    RoleBatch(const RoleBatch&) = delete;
    RoleBatch& operator=(const RoleBatch&) = delete;

    int size() const { return static_cast<int>(slots_.size()); }
    // game i now plays `engine` (a new episode from its set-up), the opponent drawing from `opponent`
    void set(int i, Engine* engine, const Pcg64& opponent);
    // the opponent's moves until the side is asked or the game is over: ASKED or ENDED
    SlotStatus settle(int i);
    // one action per game (negative: the game is skipped), then the opponent's moves; each game's
    // status, observation and mask
    // (`obs`: num_envs x layout.size floats; `masks`: num_envs x N_ACTIONS bytes) and the seat asked
    // (`seats`, may be null: the hero's index, or -1 for the DM), on `threads` threads.
    // `obs` are the batch's rows: only the batch writes into them, from one step to the next (a
    // game's row is then cleared where the batch wrote it, not zeroed whole: RowTrace); rows
    // written by anyone else, or other rows, must be handed over with forget_rows().
    void step(const int64_t* actions, int8_t* status, float* obs, int8_t* masks, int64_t* seats, int threads);
    // game i's row as `seat` (a hero's index, -1 for the DM) sees it: with the legal actions if
    // `to_act` (the seat must be the one asked), else none (the view of an end); `obs` may be game
    // i's row of the batch's rows or any other buffer
    void observe(int i, float* obs, int8_t* mask, int seat, bool to_act);
    // what the batch knows of its rows' contents forgotten: each is zeroed whole when next written
    void forget_rows();
    // the seat game i asks (a hero's index, -1 for the DM)
    int seat(int i);
    const Pcg64& opponent(int i) const { return slots_.at(i).opponent; }

private:
    struct Slot {
        Engine* engine = nullptr;
        HeroLens lens;       // the heroes' knowledge of the game (role 0)
        size_t folded = 0;   // events folded by the lens
        Pcg64 opponent;
        std::array<ObsLayout::BoardCache, 2> boards;  // this game's board planes for heroes, for the DM
        RowTrace trace;                               // what the batch last wrote into this game's row
        std::vector<int> legal;       // scratch: the opponent's legal actions in mask order
        explicit Slot(std::shared_ptr<const HeroRules> rules) : lens(std::move(rules)) {}
    };
    bool ours(const Game& g) const;
    void fold(Slot& s);
    void apply(Slot& s, int action);
    SlotStatus settle(Slot& s);
    SlotStatus step_one(Slot& s, int64_t action);
    void write(Slot& s, float* obs, int8_t* mask, int seat, bool to_act, bool traced);
    static int seat_asked(const Game& g);
    Slot& slot(int i);

    // The threads that step games beside the caller's: made at the first step that asks for them
    // and kept (a thread made per step, under load, can wait its turn on a core for longer than the
    // step takes, and the step waited for it). A step hands them its job and waits only for those
    // that took it: a thread that wakes once the games are all handed out takes none.
    struct Workers {
        std::mutex lock;
        std::condition_variable wake, done;
        const std::function<void()>* job = nullptr;  // the step's, while it runs
        uint64_t round = 0;                          // counts the jobs handed out
        int helpers = 0;                             // the threads that may take it (by index)
        int busy = 0;                                // threads inside the job
        bool stop = false;
        long owner = 0;  // the process that made the threads (a forked child has none of them)
        std::vector<std::thread> threads;
        void loop(int index);
        void run(const std::function<void()>& job, int helpers);  // with `helpers` threads beside the caller's
        ~Workers();
    };
    std::unique_ptr<Workers> workers_;

    int sides_;
    const ObsLayout* layout_;
    std::shared_ptr<const HeroRules> rules_;
    std::vector<Slot> slots_;
    const float* rows_ = nullptr;  // the rows the traces describe (step's `obs`)
};

}  // namespace dungeon_core
