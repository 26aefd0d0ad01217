"""The suite's order: its slowest tests first, so that the two workers of ``make test`` (``-n 2``,
handed tests a couple at a time: ``--maxschedchunk`` in the Makefile) finish together instead of
one of them starting a minute-long test when the other has nothing left.

The order changes no test: every test still runs, each on its own. The list holds the tests that took
15 s or more in a full run, slowest first (a parametrised test's name stands for all its cases;
re-measure with ``pytest -q -n 2 --durations=40`` and keep it roughly in order: a test missing here
only runs later)."""

from __future__ import annotations

SLOWEST_FIRST = [
    "test_no_counting.py::test_the_play_server_hands_hero_seats_the_same_answers_in_twin_games",
    "test_no_counting.py::test_an_agent_dm_plays_its_hidden_decisions_at_once_and_hero_seats_see_the_same",
    "test_turn_search.py::test_the_search_beats_random_heroes_and_is_not_worse_than_its_prior",
    "test_training.py::test_train_role_end_to_end",
    "test_search.py::test_search_departures_plays_the_difficulty_tools_games",
    "test_search.py::test_the_heroes_search_beats_random_heroes",
    "test_benchmark.py::test_a_tiny_benchmark_run_writes_its_curve_and_summary",
    "test_docs.py::test_rl_library_snippets_run_or_compile",
    "test_hidden_information.py::test_heroes_cannot_tell_twin_games_apart",
    "test_agents.py::test_the_scripted_dm_is_harder_than_a_random_one",
    "test_rllib.py::test_the_cli_trains_checkpoints_and_prints_the_evaluation_tables",
    "test_random_play.py::test_random_play_keeps_every_invariant",
    "test_dataset_workers.py::test_ray_tasks_on_a_local_instance_write_the_same_dataset",
    "test_tianshou.py::",
    "test_training_ux.py::",
    "test_training.py::test_selfplay_end_to_end",
    "test_search.py::test_the_search_spends_its_simulation_budget_unless_settled_and_works_on_copies",
    "test_search.py::test_a_search_stopped_once_settled_chooses_as_its_whole_budget_would",
    "test_describe_action.py::",
    "test_bench_learning.py::",
    "test_play_server.py::",
    "test_play_browser.py::",
    "test_side_view.py::test_agents_play_whole_games_on_their_sides_views",
    "test_hidden_information.py::test_the_scripted_heroes_cannot_tell_twin_games_apart",
    "test_agents.py::test_scripted_agents_pick_legal_actions_in_the_aec_env",
    "test_role_env.py::test_maskable_ppo_smoke_run",
    "test_rules_monsters.py::test_R_MON_03_random_play_every_monster_movement_obeys_the_duty_to_attack",
    "test_side_view.py::test_a_read_only_heroes_view_is_the_playable_view_sharing_the_games_state_without_changing_it",
    "test_render_text.py::",
    "test_difficulty_run.py::",
]


def _rank(nodeid: str) -> int:
    name = nodeid.rsplit("/", 1)[-1].split("[", 1)[0]
    for k, prefix in enumerate(SLOWEST_FIRST):
        if name.startswith(prefix) if prefix.endswith("::") else name == prefix:
            return k
    return len(SLOWEST_FIRST)


def pytest_collection_modifyitems(session, config, items) -> None:
    items.sort(key=lambda item: _rank(item.nodeid))  # stable: the rest keep their order
