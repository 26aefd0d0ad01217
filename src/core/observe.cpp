// The observation in the core (observe.hpp): the numpy builder of dungeon_env/observation.py
// (Observer._fill and its helpers) step for step, with the same float32 operations in the same
// order, so that every value is the same bit for bit (a product by a 0 / 1 mask included: 0 times a
// negative value is -0.0 in both).
#include "observe.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <numeric>
#include <stdexcept>

#include "rules/abilities.hpp"
#include "rules/decisions.hpp"

namespace dungeon_core {

UnitField unit_field(const std::string& name) {
    static const std::map<std::string, UnitField> fields = {
        {"health", UnitField::HEALTH},
        {"stamina", UnitField::STAMINA},
        {"magic", UnitField::MAGIC},
        {"move_left", UnitField::MOVE_LEFT},
        {"move_bought", UnitField::MOVE_BOUGHT},
        {"deaths_door", UnitField::DEATHS_DOOR},
        {"exhausted", UnitField::EXHAUSTED},
        {"surprised", UnitField::SURPRISED},
        {"inactive", UnitField::INACTIVE},
        {"acted", UnitField::ACTED},
        {"fought", UnitField::FOUGHT},
        {"move_done", UnitField::MOVE_DONE},
        {"base_health", UnitField::BASE_HEALTH},
        {"base_stamina", UnitField::BASE_STAMINA},
        {"base_magic", UnitField::BASE_MAGIC},
        {"base_fight", UnitField::BASE_FIGHT},
        {"base_move", UnitField::BASE_MOVE},
        {"base_damage", UnitField::BASE_DAMAGE},
    };
    auto it = fields.find(name);
    if (it == fields.end()) throw std::invalid_argument("observation layout: no per-figure state field " + name);
    return it->second;
}

int unit_value(const State& s, UnitField field, int u) {
    switch (field) {
        case UnitField::HEALTH: return s.health[u];
        case UnitField::STAMINA: return s.stamina[u];
        case UnitField::MAGIC: return s.magic[u];
        case UnitField::MOVE_LEFT: return s.move_left[u];
        case UnitField::MOVE_BOUGHT: return s.move_bought[u];
        case UnitField::DEATHS_DOOR: return s.deaths_door[u];
        case UnitField::EXHAUSTED: return s.exhausted[u];
        case UnitField::SURPRISED: return s.surprised[u];
        case UnitField::INACTIVE: return s.inactive[u];
        case UnitField::ACTED: return s.acted[u];
        case UnitField::FOUGHT: return s.fought[u];
        case UnitField::MOVE_DONE: return s.move_done[u];
        case UnitField::BASE_HEALTH: return s.base_health[u];
        case UnitField::BASE_STAMINA: return s.base_stamina[u];
        case UnitField::BASE_MAGIC: return s.base_magic[u];
        case UnitField::BASE_FIGHT: return s.base_fight[u];
        case UnitField::BASE_MOVE: return s.base_move[u];
        case UnitField::BASE_DAMAGE: return s.base_damage[u];
    }
    return 0;
}

void check_layout(const Game& g, const ObsLayout& L) {
    const Adventure& adv = g.adventure();
    const State& s = g.state;
    auto fail = [](const std::string& what) { throw std::invalid_argument("observation layout: " + what); };
    if (L.n_squares != N_SQUARES || g.tables().n_squares() != N_SQUARES) fail("the board's squares differ from the game's");
    if (L.max_units != MAX_UNITS || L.max_items != MAX_ITEMS) fail("the figure or item slots differ from the core's");
    if (L.trap_sq.size() != adv.traps.size() || s.trap_armed.size() != adv.traps.size()) {
        fail("made for another adventure (" + std::to_string(L.trap_sq.size()) + " traps, the game has " +
             std::to_string(adv.traps.size()) + ")");
    }
    if (L.event_area.size() != adv.events.size()) {
        fail("made for another adventure (" + std::to_string(L.event_area.size()) + " room events, the game has " +
             std::to_string(adv.events.size()) + ")");
    }
    for (size_t i = 0; i < L.trap_sq.size(); ++i) {
        if (L.trap_sq[i] != Game::square(adv.traps[i].at)) fail("made for another adventure (its traps' squares differ)");
    }
    for (const auto& side : L.door_sides) {
        if (side[0] < 0 || side[0] >= s.n_doors()) fail("made for another adventure (a door beyond the game's doors)");
    }
}

namespace {

template <typename T>
void copy_field(const PerUnit<T>& values, std::array<int, MAX_UNITS>& out) {
    for (int u = 0; u < MAX_UNITS; ++u) out[u] = values[u];
}

// one per-figure field of every slot, with one switch (the loops below read many)
void gather(const State& s, UnitField field, std::array<int, MAX_UNITS>& out) {
    switch (field) {
        case UnitField::HEALTH: return copy_field(s.health, out);
        case UnitField::STAMINA: return copy_field(s.stamina, out);
        case UnitField::MAGIC: return copy_field(s.magic, out);
        case UnitField::MOVE_LEFT: return copy_field(s.move_left, out);
        case UnitField::MOVE_BOUGHT: return copy_field(s.move_bought, out);
        case UnitField::DEATHS_DOOR: return copy_field(s.deaths_door, out);
        case UnitField::EXHAUSTED: return copy_field(s.exhausted, out);
        case UnitField::SURPRISED: return copy_field(s.surprised, out);
        case UnitField::INACTIVE: return copy_field(s.inactive, out);
        case UnitField::ACTED: return copy_field(s.acted, out);
        case UnitField::FOUGHT: return copy_field(s.fought, out);
        case UnitField::MOVE_DONE: return copy_field(s.move_done, out);
        case UnitField::BASE_HEALTH: return copy_field(s.base_health, out);
        case UnitField::BASE_STAMINA: return copy_field(s.base_stamina, out);
        case UnitField::BASE_MAGIC: return copy_field(s.base_magic, out);
        case UnitField::BASE_FIGHT: return copy_field(s.base_fight, out);
        case UnitField::BASE_MOVE: return copy_field(s.base_move, out);
        case UnitField::BASE_DAMAGE: return copy_field(s.base_damage, out);
    }
}

// numpy's index of a possibly negative index into n entries (a[-1] is the last)
inline int wrap(int i, int n) { return i < 0 ? i + n : i; }

// The item columns shared by own_items, item_table and a loot candidate: present, identified,
// locked, used this turn, deck one-hot and card (observation._item_rows).
void item_row(const State& s, const ObsLayout& L, int slot, bool show_all, float* row, int present, int identified,
              int locked, int used, int deck0, int card_col) {
    const int card = s.item_card[slot];
    const bool known = s.item_known[slot];
    row[present] = 1.0f;
    row[identified] = known ? 1.0f : 0.0f;
    row[locked] = s.item_locked[slot] ? 1.0f : 0.0f;
    row[used] = s.item_used_turn[slot] == s.turn ? 1.0f : 0.0f;
    row[deck0 + L.deck_of[wrap(card, static_cast<int>(L.deck_of.size()))]] = 1.0f;
    row[card_col] = (known || show_all) ? static_cast<float>(card + 1) : 0.0f;
}

// The board planes that change only with reveals, doors and traps (observation._layout_block):
// heroes see a square's layout if it lies in a revealed area (knowledge.seen_squares), an edge's if
// a square on either side does, a trap they know (knowledge.known_traps: detected, in a revealed area).
void layout_block(const Game& g, const ObsLayout& L, bool dm, float* board) {
    std::fill(board, board + L.n_planes * L.n_squares, 0.0f);
    const State& s = g.state;
    const Tables& t = g.tables();
    const int n = L.n_squares;
    std::vector<float> known(n);
    float* revealed = board + L.p_revealed * n;
    for (int sq = 0; sq < n; ++sq) {
        const float seen = s.revealed[t.area[sq]] ? 1.0f : 0.0f;
        revealed[sq] = seen;
        known[sq] = dm ? 1.0f : seen;
    }
    const std::pair<int, const std::vector<float>*> statics[] = {
        {L.p_corridor, &L.corridor}, {L.p_furniture, &L.furniture}, {L.p_blockage, &L.blockage}, {L.p_exit, &L.exit}};
    for (const auto& [plane, values] : statics) {
        float* p = board + plane * n;
        for (int sq = 0; sq < n; ++sq) p[sq] = (*values)[sq] * known[sq];
    }
    // an edge is known if the square or its neighbour that way is (observation._edge_known)
    float* wall_e = board + L.p_wall_e * n;
    float* wall_s = board + L.p_wall_s * n;
    for (int y = 0, sq = 0; y < L.height; ++y) {
        for (int x = 0; x < L.width; ++x, ++sq) {
            const float east = x + 1 < L.width ? std::max(known[sq], known[sq + 1]) : known[sq];
            const float south = y + 1 < L.height ? std::max(known[sq], known[sq + L.width]) : known[sq];
            wall_e[sq] = L.wall_e[sq] * east;
            wall_s[sq] = L.wall_s[sq] * south;
        }
    }
    const int step[2] = {1, L.width};
    for (const auto& [door, sq, i] : L.door_sides) {
        const int other = sq + step[i];
        if (!(known[sq] != 0.0f || (other < n && known[other] != 0.0f))) continue;
        if (s.door_hidden[door]) {
            if (dm) {
                board[(L.p_door_closed_e + i) * n + sq] = 1.0f;
                board[L.p_secret_door * n + sq] = 1.0f;
            } else {
                board[(L.p_wall_e + i) * n + sq] = 1.0f;
            }
        } else if (s.door_open[door]) {
            board[(L.p_door_open_e + i) * n + sq] = 1.0f;
        } else {
            board[(L.p_door_closed_e + i) * n + sq] = 1.0f;
        }
    }
    for (size_t i = 0; i < L.trap_sq.size(); ++i) {
        const int sq = L.trap_sq[i];
        const bool armed = s.trap_armed[i], detected = s.trap_detected[i];
        if (!dm && !(detected && s.revealed[t.area[sq]])) continue;  // known_traps
        if (armed && detected) {
            board[L.p_trap_detected * n + sq] = 1.0f;
        } else if (detected) {
            board[L.p_hazard * n + sq] = 1.0f;
        } else if (armed) {
            board[L.p_trap_hidden * n + sq] = 1.0f;
        }
    }
}

// `n` floats at `out` set to 0; `streamed`: with non-temporal stores where SSE2 has them (see
// observe's `streamed`), fenced so that the zeros come before the stores that follow them
void zero(float* out, size_t n, bool streamed) {
#if defined(__SSE2__)
    if (streamed) {
        size_t i = 0;
        for (; i < n && (reinterpret_cast<uintptr_t>(out + i) & 15); ++i) out[i] = 0.0f;
        const __m128 zeros = _mm_setzero_ps();
        for (; i + 4 <= n; i += 4) _mm_stream_ps(out + i, zeros);
        for (; i < n; ++i) out[i] = 0.0f;
        _mm_sfence();
        return;
    }
#endif
    std::fill(out, out + n, 0.0f);
}

// bit u set where values[u] < 0 (the sign bits, four at a time where SSE2 has them)
uint64_t sign_bits(const std::array<int, MAX_UNITS>& values) {
    static_assert(MAX_UNITS <= 64 && MAX_UNITS % 4 == 0, "the figure slots as bits of one word, by fours");
    uint64_t bits = 0;
#if defined(__SSE2__)
    for (int u = 0; u < MAX_UNITS; u += 4) {
        const __m128i four = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values.data() + u));
        bits |= static_cast<uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(four))) << u;
    }
#else
    for (int u = 0; u < MAX_UNITS; ++u) bits |= static_cast<uint64_t>(values[u] < 0) << u;
#endif
    return bits;
}

// The nonzero values of `planes` (a -0.0 too: any bit set), as (index, value) cells, skipping runs
// of 16 zeros at a time (the layout's planes are nearly all zeros)
void nonzero_cells(const std::vector<float>& planes, std::vector<std::pair<int, float>>& cells) {
    cells.clear();
    const size_t n = planes.size();
    size_t k = 0;
    for (; k + 16 <= n; k += 16) {
        uint32_t words[16];
        std::memcpy(words, planes.data() + k, sizeof(words));
        uint32_t any = 0;
        for (uint32_t w : words) any |= w;
        if (any == 0) continue;
        for (size_t j = 0; j < 16; ++j) {
            if (words[j] != 0) cells.emplace_back(static_cast<int>(k + j), planes[k + j]);
        }
    }
    for (; k < n; ++k) {
        if (planes[k] != 0.0f || std::signbit(planes[k])) cells.emplace_back(static_cast<int>(k), planes[k]);
    }
}

// row[begin, end) from scratch[begin, end) by the row's 64-byte lines: each line that holds a value
// (any bit set: a -0.0 too) or held one after the last write (`held`, one bit per line from `line`
// on, which the caller sized; a bit it set to 1 when the row is not known) is written, with
// non-temporal stores where whole; the scratch's lines that held values are zeroed again.
// Unfenced: the caller fences once. Returns the line after the last.
size_t write_lines(float* const row, float* const scratch, size_t begin, size_t end, uint64_t* const held, size_t line) {
    size_t at = begin;
    // a first partial line, up to the row's first whole line
    const size_t to_line = ((64 - (reinterpret_cast<uintptr_t>(row + begin) & 63)) & 63) / sizeof(float);
    const size_t lead = std::min(end - begin, to_line);
    auto partial = [&](size_t stop) {
        uint32_t any = 0;
        for (size_t k = at; k < stop; ++k) {
            uint32_t word;
            std::memcpy(&word, scratch + k, sizeof(word));
            any |= word;
        }
        const uint64_t bit = uint64_t{1} << (line % 64);
        if (any != 0 || (held[line / 64] & bit)) {
            std::copy(scratch + at, scratch + stop, row + at);
            if (any != 0) std::fill(scratch + at, scratch + stop, 0.0f);
        }
        held[line / 64] = any != 0 ? held[line / 64] | bit : held[line / 64] & ~bit;
        ++line;
        at = stop;
    };
    if (lead > 0) partial(begin + lead);
    for (; at + 16 <= end; at += 16, ++line) {
        const uint64_t bit = uint64_t{1} << (line % 64);
        uint64_t& word = held[line / 64];
        float* const from = scratch + at;
#if defined(__SSE2__)
        const __m128 a = _mm_loadu_ps(from), b = _mm_loadu_ps(from + 4);
        const __m128 c = _mm_loadu_ps(from + 8), d = _mm_loadu_ps(from + 12);
        const __m128i bits = _mm_or_si128(_mm_or_si128(_mm_castps_si128(a), _mm_castps_si128(b)),
                                          _mm_or_si128(_mm_castps_si128(c), _mm_castps_si128(d)));
        const bool now = _mm_movemask_epi8(_mm_cmpeq_epi32(bits, _mm_setzero_si128())) != 0xFFFF;
        if (now || (word & bit)) {
            float* const to = row + at;  // 64-byte aligned
            _mm_stream_ps(to, a);
            _mm_stream_ps(to + 4, b);
            _mm_stream_ps(to + 8, c);
            _mm_stream_ps(to + 12, d);
            if (now) std::fill(from, from + 16, 0.0f);
        }
#else
        uint32_t any = 0;
        for (size_t k = 0; k < 16; ++k) {
            uint32_t w;
            std::memcpy(&w, from + k, sizeof(w));
            any |= w;
        }
        const bool now = any != 0;
        if (now || (word & bit)) {
            std::copy(from, from + 16, row + at);
            if (now) std::fill(from, from + 16, 0.0f);
        }
#endif
        word = now ? word | bit : word & ~bit;
    }
    if (at < end) partial(end);
    return line;
}

// A decision's arg as heroes see it (observation._hero_arg): -1 when not shown.
int hero_arg(const ObsLayout& L, int rule, int v, const std::array<int, MAX_UNITS>& column) {
    if (v < 0 || rule == ARG_HIDDEN) return -1;
    if (rule == ARG_PUBLIC) return v;
    if (rule == ARG_SEEN_UNIT) return v < MAX_UNITS ? column[v] : -1;
    return v < static_cast<int>(L.event_area.size()) ? L.event_area[v] : -1;  // ARG_EVENT_AREA
}

float arg_value(const ObsLayout& L, int v) {
    return v < L.args_max ? static_cast<float>(static_cast<double>(v + 1) / L.norm_args) : 1.0f;
}

}  // namespace

void observe(Game& g, const ObsLayout& L, float* row_out, int8_t* mask, int n_mask, int role, int me, bool to_act,
             int max_turns, const HeroSight& sight, ObsLayout::BoardCache* own_cache, RowTrace* trace) {
    // A traced row's values outside the board are made in a scratch row, which stays in the caches,
    // then streamed into the row: its lines are written, never read, and only those that hold a
    // value now or did after the last write (RowTrace::lines). The scratch is all zeros between
    // calls (the lines written are zeroed again), unless a call stopped half way (`clean`).
    static thread_local std::vector<float> scratch;
    static thread_local bool clean = false;
    float* out = row_out;
    if (trace) {
        if (!clean || scratch.size() != static_cast<size_t>(L.size)) scratch.assign(L.size, 0.0f);
        clean = false;
        out = scratch.data();
    }
    const State& s = g.state;
    const bool dm = role != 0;
    const int n_sq = L.n_squares;
    float* const table = out + L.figures;
    auto cell = [&](int u, int col) -> float& { return table[u * L.nf + col]; };

    // ---- which figures there are (observation._Figures)
    std::array<float, MAX_UNITS> present{};
    std::array<bool, MAX_UNITS> hero{}, monster{}, on_board{};
    bool combat = false;
    for (int u = 0; u < MAX_UNITS; ++u) {
        const int status = s.unit_status[u];
        hero[u] = s.unit_side[u] == SIDE_HERO;
        monster[u] = s.unit_side[u] == SIDE_MONSTER;
        const bool here = (monster[u] && status == ACTIVE) ||
                          (hero[u] && (status == ACTIVE || status == EXITED || status == CORPSE || status == CORPSE_OUT));
        present[u] = here ? 1.0f : 0.0f;
        on_board[u] = (status == ACTIVE || (hero[u] && status == CORPSE)) && s.unit_pos[u] >= 0;
        if (on_board[u] && monster[u]) combat = true;
    }

    // ---- the board planes of the layout (kept between calls), everything else 0
    const int board_size = L.n_planes * n_sq;
    float* const board = row_out + L.board;
    // the row as the trace has it: its figures' board cells cleared, the rest of the board kept
    const bool traced = trace != nullptr && trace->row == row_out;
    if (trace) {
        if (!traced) zero(board, static_cast<size_t>(board_size), true);
    } else {
        std::fill(out, out + L.size, 0.0f);
    }
    // a traced row's figure cells of the last call (none once zeroed): set again at the end where
    // this call's differ, so that the cells of figures that did not move are not touched
    static thread_local std::vector<int> old_figures;
    old_figures.clear();
    if (trace) {
        if (traced) old_figures.swap(trace->figures);
        trace->row = nullptr;  // until this row is written whole
        trace->figures.clear();
    }
    {
        ObsLayout::BoardCache& cache = own_cache ? *own_cache : L.board_cache[dm ? 1 : 0];
        static thread_local std::vector<uint8_t> key;
        key.clear();
        for (const Flags* f : {&s.revealed, &s.door_open, &s.door_hidden, &s.trap_armed, &s.trap_detected}) {
            key.insert(key.end(), f->begin(), f->end());
            key.push_back(2);  // a separator: the fields' lengths are part of the key
        }
        if (!cache.made || cache.key != key) {
            static thread_local std::vector<float> planes;
            planes.resize(board_size);
            layout_block(g, L, dm, planes.data());
            nonzero_cells(planes, cache.cells);
            cache.key = key;
            cache.made = true;
            ++cache.version;
        }
        const bool held = traced && trace->cache == &cache && trace->version == cache.version;
        if (!held) {
            if (traced) {
                for (int k : trace->cells) board[k] = 0.0f;
            }
            for (const auto& [k, v] : cache.cells) board[k] = v;
            if (trace) {
                trace->cache = &cache;
                trace->version = cache.version;
                trace->cells.clear();
                for (const auto& cell : cache.cells) trace->cells.push_back(cell.first);
            }
        }
    }
    // a figure's board cell (the planes the layout's cells leave at 0): traced, written at the end
    auto figure_cell = [&](int k) {
        if (trace) {
            trace->figures.push_back(k);
        } else {
            board[k] = 1.0f;
        }
    };

    // ---- the static figure rows (observation._static_rows), then the ready_k flags
    std::array<int, MAX_UNITS> held{};
    for (int i = 0; i < MAX_ITEMS; ++i) {
        if (s.item_holder[i] >= 0 && s.item_holder[i] < MAX_UNITS) ++held[s.item_holder[i]];
    }
    const size_t n_static = L.static_col.size(), n_dyn = L.dyn_field.size();
    static thread_local std::vector<std::array<int, MAX_UNITS>> statics, dyn, dyn_base;  // scratch, per call
    statics.resize(n_static);
    dyn.resize(n_dyn);
    dyn_base.resize(n_dyn);
    for (size_t i = 0; i < n_static; ++i) gather(s, L.static_field[i], statics[i]);
    for (size_t i = 0; i < n_dyn; ++i) {
        gather(s, L.dyn_field[i], dyn[i]);
        if (!L.dyn_norm[i]) gather(s, L.dyn_base[i], dyn_base[i]);
    }
    // the absent figures (bits by slot), and in them the negative values of each field, whose
    // product by the absent figure's 0 is -0.0 (numpy's)
    uint64_t absent = 0;
    for (int u = 0; u < MAX_UNITS; ++u) absent |= static_cast<uint64_t>(present[u] == 0.0f) << u;
    auto negative_absent = [&](const std::array<int, MAX_UNITS>& values) { return sign_bits(values) & absent; };
    for (size_t i = 0; i < n_static; ++i) {
        for (uint64_t bits = negative_absent(statics[i]); bits; bits &= bits - 1) {
            table[__builtin_ctzll(bits) * L.nf + L.static_col[i]] = -0.0f;
        }
    }
    for (int u = 0; u < MAX_UNITS; ++u) {
        float* row = table + u * L.nf;
        if (present[u] == 0.0f) {
            // numpy's product by the 0 of an absent figure: +0, or -0.0 where the value was negative
            // (the static fields' above)
            if (s.unit_side[u] >= 0 && s.unit_card[u] + (monster[u] ? L.n_hero_cards : 0) + 1 < 0) row[L.f_kind] = -0.0f;
            if (monster[u] && s.unit_uid[u] + 1 < 0) row[L.f_name] = -0.0f;
            continue;
        }
        const int status = s.unit_status[u];
        row[L.f_present] = present[u];
        row[L.f_hero] = hero[u] ? 1.0f : 0.0f;
        row[L.f_monster] = monster[u] ? 1.0f : 0.0f;
        row[L.f_active] = status == ACTIVE ? 1.0f : 0.0f;
        row[L.f_exited] = status == EXITED ? 1.0f : 0.0f;
        row[L.f_dead] = hero[u] && (status == CORPSE || status == CORPSE_OUT) ? 1.0f : 0.0f;
        row[L.f_dragging] = s.dragging[u] >= 0 ? 1.0f : 0.0f;
        row[L.f_items_held] = static_cast<float>(static_cast<double>(held[u]) / L.norm_items_held);
        for (size_t i = 0; i < n_static; ++i) {
            row[L.static_col[i]] = static_cast<float>(static_cast<double>(statics[i][u]) / L.static_norm[i]);
        }
        const int traits = s.unit_traits[u];
        for (int i = 0; i < L.n_traits; ++i) row[L.f_trait0 + i] = static_cast<float>((traits >> i) & 1);
        const int how = s.unit_how[u];
        if (monster[u] && how >= 0 && how < 5 && L.f_how[how] >= 0) row[L.f_how[how]] = 1.0f;
        for (int j = 0; j < L.nf; ++j) row[j] = std::min(row[j], 1.0f);
        if (s.unit_side[u] >= 0) {
            row[L.f_kind] = static_cast<float>(s.unit_card[u] + (monster[u] ? L.n_hero_cards : 0) + 1);
        }
        row[L.f_name] = monster[u] ? static_cast<float>(s.unit_uid[u]) + 1.0f : 0.0f;
        // (numpy then multiplies the row by present, 1.0 here: the same values, bit for bit)
    }
    for (const auto& [h, k] : abilities::ready_pairs(g)) {
        if (k < L.n_ready) cell(h, L.f_ready0 + k) = 1.0f;
    }

    // ---- the item table (observation._Figures.item_table)
    float* items = out + L.item_table;
    for (int i = 0; i < MAX_ITEMS; ++i) {
        const int holder = s.item_holder[i];
        const bool known = dm ? holder >= -1 : (holder >= -1 && holder < s.n_heroes);
        if (s.item_card[i] < 0 || !known) continue;
        float* row = items + i * L.nt;
        item_row(s, L, i, dm, row, L.t_present, L.t_identified, L.t_locked, L.t_used, L.t_deck0, L.t_card);
        row[L.t_holder] = static_cast<float>(holder + 1);
        row[L.t_lying] = holder < 0 ? 1.0f : 0.0f;
    }

    // ---- x, y and the per-call values (scaled, 0 for absent figures, clipped at 1)
    for (size_t i = 0; i < n_dyn; ++i) {
        // an absent figure's x, y are 0; a value times a scale of +0 is -0.0 where it is negative
        for (uint64_t bits = negative_absent(dyn[i]); bits; bits &= bits - 1) {
            table[__builtin_ctzll(bits) * L.nf + L.f_dyn0 + static_cast<int>(i)] = -0.0f;
        }
    }
    for (int u = 0; u < MAX_UNITS; ++u) {
        float* row = table + u * L.nf;
        if (present[u] == 0.0f) continue;
        const int p = wrap(s.unit_pos[u], n_sq + 1);
        row[L.f_x] = L.xy[2 * p] * present[u];
        row[L.f_y] = L.xy[2 * p + 1] * present[u];  // off the board (-1): the last row, (0, 0)
        for (size_t i = 0; i < n_dyn; ++i) {
            const float scale = L.dyn_norm[i] ? L.dyn_scale[i] : static_cast<float>(1.0 / std::max(dyn_base[i][u], 1));
            const float v = static_cast<float>(dyn[i][u]) * scale;
            row[L.f_dyn0 + i] = std::min(v, 1.0f);
        }
    }

    // ---- what heroes see of the figures (observation._Sight)
    std::array<int, MAX_UNITS> column{};
    std::vector<int> order;
    std::vector<float> names;
    const int n_heroes = s.n_heroes;
    if (!dm) {
        for (int u = 0; u < MAX_UNITS; ++u) column[u] = hero[u] && present[u] != 0.0f ? u : -1;
        const size_t k = sight.seen.size();
        std::vector<int> by_name(k);
        std::iota(by_name.begin(), by_name.end(), 0);
        std::stable_sort(by_name.begin(), by_name.end(),
                         [&](int i, int j) { return sight.numbers[i] < sight.numbers[j]; });
        for (size_t r = 0; r < k; ++r) {
            const int slot = sight.seen[by_name[r]];
            order.push_back(slot);
            names.push_back(static_cast<float>(sight.numbers[by_name[r]]) + 1.0f);
        }
        for (size_t r = 0; r < k; ++r) column[wrap(order[r], MAX_UNITS)] = n_heroes + static_cast<int>(r);
    }

    // ---- the figures on the board (heroes: those they see)
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (!on_board[u] || (!dm && column[u] < 0)) continue;
        const int plane = s.unit_status[u] == CORPSE ? L.p_corpses : (hero[u] ? L.p_heroes : L.p_monsters);
        figure_cell(plane * n_sq + s.unit_pos[u]);
    }
    if (!dm && me >= 0 && me < n_heroes) {
        cell(me, L.f_me) = 1.0f;
        // own_items and own_spells (observation._hero_cards)
        int n_held = 0;
        for (int i = 0; i < MAX_ITEMS && n_held < L.max_items_held; ++i) {
            if (s.item_holder[i] != me) continue;
            float* row = out + L.own_items + n_held * L.ni;
            item_row(s, L, i, false, row, L.i_present, L.i_identified, L.i_locked, L.i_used, L.i_deck0, L.i_card);
            ++n_held;
        }
        const int n_spells = s.n_spells();
        int n_known = 0;
        for (int sp = 0; sp < n_spells && n_known < L.max_spells; ++sp) {
            if (!s.spell_known[me * n_spells + sp]) continue;
            float* row = out + L.own_spells + n_known * L.ns;
            row[L.s_present] = 1.0f;
            row[L.s_level] = static_cast<float>(static_cast<double>(g.content->spells.at(sp).level) / L.norm_spell_level);
            row[L.s_spell] = static_cast<float>(sp + 1);
            ++n_known;
        }
    }
    if (!s.effects.empty()) {
        std::array<int, MAX_UNITS> counts{};
        for (const Row& effect : s.effects) {
            const int u = effect[EFFECT_UNIT];
            if (u >= 0 && u < MAX_UNITS) ++counts[u];
        }
        for (int u = 0; u < MAX_UNITS; ++u) {
            const double c = std::min(static_cast<double>(counts[u]) / L.norm_effects, 1.0);
            cell(u, L.f_effects) = static_cast<float>(c * present[u]);
        }
    }

    // ---- the decision context (observation._fill_context)
    out[L.role + role] = 1.0f;
    out[L.phase + s.phase] = 1.0f;
    if (me >= 0) out[L.me + me] = 1.0f;
    if (to_act) out[L.my_turn] = 1.0f;
    if (combat) out[L.combat] = 1.0f;
    if (s.outcome.empty() && !s.stack.empty()) {
        const Row& top = s.stack.back();
        const int kind = top[STACK_KIND], unit = top[STACK_UNIT], a = top[STACK_A], b = top[STACK_B];
        out[L.acting + (unit < n_heroes ? wrap(unit, L.acting_dm) : L.acting_dm)] = 1.0f;  // game.agent
        const int slot = wrap(unit, MAX_UNITS);
        if (dm || column[slot] >= 0) {
            out[L.decision + kind] = 1.0f;
            cell(slot, L.f_acting) = 1.0f;
            const int p = s.unit_pos[slot];
            if (p >= 0) figure_cell(L.p_acting_unit * n_sq + p);
            int shown_a = a, shown_b = b;
            if (!dm && !(a == -1 && b == -1)) {
                const std::array<int, 2> rules =
                    kind >= 0 && kind < static_cast<int>(L.hero_args.size()) ? L.hero_args[kind] : std::array<int, 2>{0, 0};
                shown_a = hero_arg(L, rules[0], a, column);
                shown_b = hero_arg(L, rules[1], b, column);
            }
            if (shown_a >= 0) out[L.decision_args] = arg_value(L, shown_a);
            if (shown_b >= 0) out[L.decision_args + 1] = arg_value(L, shown_b);
            if (kind == L.choose_target) {
                out[L.target_purpose + a] = 1.0f;
                // the candidates, in TARGET_k order (observation._fill_candidates)
                const auto chosen = decisions::target_candidates(g, unit, a, b);
                const int n = std::min(static_cast<int>(chosen.size()), L.max_targets);
                for (int k = 0; k < n; ++k) {
                    float* row = out + L.candidates + k * L.nc;
                    if (a == L.target_loot) {
                        const auto [corpse, item] = chosen[k];
                        const int card = s.item_card[item];
                        const bool known = s.item_known[item];
                        row[L.c_present] = 1.0f;
                        row[L.c_item] = 1.0f;
                        row[L.c_row] = static_cast<float>(item + 1);
                        const int q = wrap(s.unit_pos[corpse], n_sq + 1);
                        row[L.c_x] = L.xy[2 * q];
                        row[L.c_y] = L.xy[2 * q + 1];
                        row[L.c_identified] = known ? 1.0f : 0.0f;
                        row[L.c_deck0 + L.deck_of[wrap(card, static_cast<int>(L.deck_of.size()))]] = 1.0f;
                        if (known || dm) row[L.c_card] = static_cast<float>(card + 1);
                        continue;
                    }
                    const int u = chosen[k].first;
                    if (!dm && column[u] < 0) continue;
                    row[L.c_present] = 1.0f;
                    row[L.c_unit] = 1.0f;
                    row[L.c_row] = static_cast<float>((dm ? u : column[u]) + 1);
                    const int q = wrap(s.unit_pos[u], n_sq + 1);
                    row[L.c_x] = L.xy[2 * q];
                    row[L.c_y] = L.xy[2 * q + 1];
                    cell(u, L.f_candidate) = 1.0f;
                }
            }
        }
    }
    out[L.light] = s.light < L.norm_light ? static_cast<float>(static_cast<double>(s.light) / L.norm_light) : 1.0f;
    out[L.turn] = s.turn < max_turns ? static_cast<float>(static_cast<double>(s.turn) / max_turns) : 1.0f;

    // ---- heroes: their rows of the figures (observation._Sight.to_hero_rows)
    if (!dm) {
        const int k = static_cast<int>(order.size());
        bool in_place = true;
        for (int r = 0; r < k; ++r) in_place = in_place && order[r] == n_heroes + r;
        if (in_place) {
            for (int u = 0; u < MAX_UNITS; ++u) {
                if (present[u] > 0.0f && column[u] < 0) std::fill(table + u * L.nf, table + (u + 1) * L.nf, 0.0f);
            }
        } else {
            std::vector<float> moved(static_cast<size_t>(k) * L.nf);
            for (int r = 0; r < k; ++r) {
                const float* from = table + wrap(order[r], MAX_UNITS) * L.nf;
                std::copy(from, from + L.nf, moved.begin() + static_cast<size_t>(r) * L.nf);
            }
            for (int u = 0; u < n_heroes; ++u) {
                const float keep = hero[u] && present[u] != 0.0f ? 1.0f : 0.0f;
                for (int j = 0; j < L.nf; ++j) table[u * L.nf + j] *= keep;
            }
            std::fill(table + n_heroes * L.nf, table + MAX_UNITS * L.nf, 0.0f);
            std::copy(moved.begin(), moved.end(), table + n_heroes * L.nf);
        }
        for (int r = 0; r < k; ++r) cell(n_heroes + r, L.f_name) = names[r];
    }

    if (trace) {
        // the figures' board cells: the last call's that are not this call's cleared, the new ones set
        // (told apart by marks per board cell: `was` on the last call's, `is` on this call's)
        static thread_local std::vector<uint32_t> marks;
        static thread_local uint32_t mark = 0;
        if (marks.size() < static_cast<size_t>(board_size)) marks.assign(board_size, 0);
        if (mark > UINT32_MAX - 4) {
            std::fill(marks.begin(), marks.end(), 0u);
            mark = 0;
        }
        mark += 2;
        const uint32_t was = mark, is = mark + 1;
        for (int k : old_figures) marks[k] = was;
        for (int k : trace->figures) {
            if (marks[k] != was && marks[k] != is) board[k] = 1.0f;
            marks[k] = is;
        }
        for (int k : old_figures) {
            if (marks[k] != is) board[k] = 0.0f;
        }
        // a bit per line of the two pieces outside the board (each has at most two partial lines)
        const size_t words = (static_cast<size_t>(L.size) / 16 + 5) / 64 + 1;
        if (!traced || trace->lines.size() != words) trace->lines.assign(words, ~uint64_t{0});  // not known: written
        size_t line = write_lines(row_out, out, 0, static_cast<size_t>(L.board), trace->lines.data(), 0);
        write_lines(row_out, out, static_cast<size_t>(L.board + board_size), static_cast<size_t>(L.size),
                    trace->lines.data(), line);
#if defined(__SSE2__)
        _mm_sfence();  // the streamed lines before whatever the caller writes next
#endif
        clean = true;
        trace->row = row_out;
    }

    // ---- the action mask
    std::fill(mask, mask + n_mask, static_cast<int8_t>(0));
    if (to_act && !g.over()) {
        for (int action : g.legal_actions()) {
            if (action >= 0 && action < n_mask) mask[action] = 1;
        }
    }
}

HeroSight hero_sight(const Game& g, const HeroLens& lens) {
    HeroSight sight;
    sight.seen = HeroLens::monsters_in_sight(g);
    sight.numbers.reserve(sight.seen.size());
    for (int u : sight.seen) sight.numbers.push_back(lens.number(g.state.unit_uid[u]));
    return sight;
}

}  // namespace dungeon_core
