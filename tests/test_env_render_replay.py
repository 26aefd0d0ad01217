"""Rendering (ansi, rgb_array, human with a dummy video driver) and replays that play back to the
identical trajectory and render to a GIF (and an MP4 where imageio-ffmpeg is installed)."""

from __future__ import annotations

import functools
import json
import os
import random

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # before pygame is first imported
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pettingzoo.test import render_test  # noqa: E402

import dungeon_env  # noqa: E402
from dungeon_env import replay  # noqa: E402
from dungeon_env.engine import IllegalActionError  # noqa: E402
from dungeon_env.engine.state import State  # noqa: E402
from dungeon_env.render.image import LEGEND_W  # noqa: E402

ADVENTURE = "flooded_cellar"


def random_episode(env, seed: int, stop_after: int | None = None) -> None:
    env.reset(seed=seed)
    rng = random.Random(seed)
    for n, _agent in enumerate(env.agent_iter()):
        if stop_after is not None and n >= stop_after:
            return
        obs, _r, terminated, truncated, _i = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_pettingzoo_render_test():
    render_test(functools.partial(dungeon_env.env, adventure=ADVENTURE, max_turns=3))


def test_ansi_is_the_text_board():
    env = dungeon_env.env(adventure=ADVENTURE, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "Turn 1" in text and "Waiting for hero_0" in text


def test_ansi_keeps_each_monsters_letter_for_the_episode():
    env = dungeon_env.env(adventure="goblin_warrens", render_mode="ansi", heroes=4, max_turns=10)
    given = {}
    for seed in (0, 1):
        random_episode(env, seed, stop_after=0)
        letters = env.unwrapped._letters
        assert letters is None or len(letters) == 0, "a new episode starts with no letters"
        given = {}
        for _ in range(400):
            env.render()
            letters = env.unwrapped._letters
            assert dict(list(letters.letters.items())[: len(given)]) == given, "a letter changed"
            given = dict(letters.letters)
            if not env.agents:
                break
            obs, _r, terminated, truncated, _i = env.last()
            mask = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(random.Random(len(given)).choice(mask)))
    assert given, "monsters were seen"


def test_rgb_array_is_an_image_of_the_board_that_changes_with_play():
    env = dungeon_env.env(adventure=ADVENTURE, render_mode="rgb_array", heroes=4)
    env.reset(seed=0)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] >= 28 * 20 and first.shape[1] == 24 * 20 + LEGEND_W  # the board, its legend
    random_episode(env, 0, stop_after=60)
    assert not np.array_equal(first, env.render())


def test_human_mode_opens_a_window_and_closes():
    env = dungeon_env.env(adventure=ADVENTURE, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    env.close()
    env.close()  # closing twice is harmless


def test_a_replay_is_small_and_plays_back_the_identical_trajectory(tmp_path):
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=8)
    random_episode(env, 21)
    path = tmp_path / "episode.json"
    rep = replay.save(env, path)
    data = json.loads(path.read_text())
    assert data["format"] == replay.REPLAY_FORMAT and data["seed"] == 21
    assert set(data["versions"]) >= {"dungeon_env", "env", "python", "numpy", "pettingzoo"}
    assert all(isinstance(a, int) for a in data["actions"]) and len(data["actions"]) == len(rep.actions)
    assert path.stat().st_size < 20 * 1024 + 8 * len(rep.actions)
    again = replay.play(replay.load(path))
    assert again.events == env.unwrapped.events
    assert again.game.state.equals(env.unwrapped.game.state)
    assert isinstance(again.game.state, State) and again.game.outcome == rep.outcome


def test_a_replay_saved_before_reward_completed_without_goal_existed_still_plays(tmp_path):
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=6, reward_completed_without_goal=0.5)
    random_episode(env, 4)
    data = replay.record(env).to_json()
    assert data["options"]["reward_completed_without_goal"] == 0.5  # kept with the other options
    del data["options"]["reward_completed_without_goal"]  # as files written before issue 10 are
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    again = replay.play(replay.load(path))
    assert again.events == env.unwrapped.events
    assert again.options["reward_completed_without_goal"] == 0.0  # the default


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # illegal on purpose
def test_a_replay_that_does_not_match_is_refused():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=4)
    random_episode(env, 5)
    rep = replay.record(env)
    with pytest.raises(replay.ReplayMismatch):
        replay.play(replay.Replay(**{**rep.to_json(), "events_sha256": "0" * 64}))
    # an action the episode never played: env() penalizes it (its default), so the replay ends early
    with pytest.raises(replay.ReplayMismatch, match=r"ended after 1 of \d+ recorded actions"):
        replay.play(replay.Replay(**{**rep.to_json(), "actions": [75] + rep.actions[1:]}))
    raw = replay.Replay(**{**rep.to_json(), "actions": [75] + rep.actions[1:]})
    raw.options["illegal_action"] = "raise"
    with pytest.raises(IllegalActionError):
        replay.play(raw)
    with pytest.raises(ValueError, match="not a replay"):
        replay.Replay.from_json({"format": "something else"})


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # illegal on purpose
def test_a_replay_of_an_episode_ended_by_an_illegal_action_replays_the_ending():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, illegal_action="penalize")
    random_episode(env, 8, stop_after=30)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0]))
    rep = replay.record(env)
    assert rep.illegal is not None and rep.illegal["agent"] == agent
    again = replay.play(rep)
    assert again.illegal == env.unwrapped.illegal and again.events == env.unwrapped.events


def test_a_replay_renders_to_a_gif(tmp_path):
    import imageio.v3 as iio

    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=3)
    random_episode(env, 2)
    rep = replay.record(env)
    path = replay.render_video(rep, tmp_path / "episode.gif", fps=8, every=25)
    frames = iio.imread(path, index=None)
    assert frames.shape[0] == len(list(replay.frames(rep, every=25))) and frames.shape[-1] == 3
    with pytest.raises(ValueError, match="gif or .mp4"):
        replay.render_video(rep, tmp_path / "episode.avi")


def test_a_replay_renders_to_an_mp4(tmp_path):
    pytest.importorskip("imageio_ffmpeg", reason="MP4 output needs imageio-ffmpeg (not installed)")
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=2)
    random_episode(env, 2)
    path = replay.render_video(replay.record(env), tmp_path / "episode.mp4", every=40)
    assert path.stat().st_size > 0


def test_replay_frames_are_captioned_with_the_events_since_the_previous_frame(tmp_path):
    from dungeon_env.render.image import BOARD_H, CAPTION, CAPTION_TEXT, caption_chars
    from dungeon_env.render.story import Story

    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=3)
    random_episode(env, 2)
    rep = replay.record(env)
    captioned = list(replay.frames(rep, every=10))
    plain = list(replay.frames(rep, every=10, captions=False))
    assert len(captioned) == len(plain) and len({f.shape for f in captioned}) == 1
    assert captioned[0].shape[0] == plain[0].shape[0] + CAPTION
    for a, b in zip(captioned, plain, strict=True):
        assert np.array_equal(a[:BOARD_H], b[:BOARD_H]) and np.array_equal(
            a[BOARD_H + CAPTION :], b[BOARD_H:]
        )
    strips = [f[BOARD_H : BOARD_H + CAPTION] for f in captioned]
    assert sum((s == CAPTION_TEXT).all(axis=2).any() for s in strips) > len(strips) // 2, "captions drawn"
    assert len({s.tobytes() for s in strips}) > len(strips) // 2, "the captions differ from frame to frame"
    # a frame's caption is the story's last lines of the events since the previous frame
    from dungeon_env.render.image import render_image
    from dungeon_env.render.story import MINOR

    story, told, since, expected = Story(), 0, [], []
    for i, step_env in enumerate(replay.steps(rep)):
        new = step_env.game.events_since(told)
        told += len(new)
        since += [(e["type"], story.tell(e)) for e in new]
        if i % 10 == 0 or i == len(rep.actions):
            keep = [line for kind, line in since if kind not in MINOR] or [line for _, line in since]
            caption = "\n".join(line[: caption_chars()] for line in keep[-2:])
            assert replay.caption_of(since) == caption or any(
                len(line) > caption_chars() for line in keep[-2:]
            )
            expected.append(render_image(step_env.game, caption=replay.caption_of(since)))
            since = []
    assert len(expected) == len(captioned)
    assert all(np.array_equal(a, b) for a, b in zip(captioned, expected, strict=True))
    assert replay.caption_of([("handoff", "Bram (hero_0) to act")]) == "Bram (hero_0) to act"
    assert replay.caption_of([("move", "x" * 200)], width=20) == "x" * 17 + "..."
    assert replay.caption_of([]) == ""
    path = replay.render_video(rep, tmp_path / "captioned.gif", fps=8, every=10)
    import imageio.v3 as iio

    written = iio.imread(path, index=None)
    assert written.shape[0] == len(captioned) and written.shape[1] == captioned[0].shape[0]
    path = replay.render_video(rep, tmp_path / "plain.gif", every=10, captions=False)
    assert iio.imread(path, index=None).shape[1] == plain[0].shape[0]
