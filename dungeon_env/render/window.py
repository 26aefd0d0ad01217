"""The ``human`` render mode: a pygame window showing the frames of ``render_image``.

pygame is imported only when a window is opened. Headless machines and tests set
``SDL_VIDEODRIVER=dummy`` before the first frame.
"""

from __future__ import annotations

import numpy as np


class Window:
    """A window that shows RGB frames at a steady rate; closing it is always safe."""

    def __init__(self, title: str, fps: int) -> None:
        try:
            import pygame
        except ImportError as err:  # pragma: no cover - depends on the install
            raise ImportError(
                "render_mode='human' needs pygame-ce: pip install 'dungeon_env[render]'"
            ) from err
        self._pygame = pygame
        pygame.init()
        pygame.display.set_caption(title)
        self._fps = fps
        self._clock = pygame.time.Clock()
        self._screen = None

    def show(self, frame: np.ndarray) -> None:
        pygame = self._pygame
        height, width = frame.shape[:2]
        if self._screen is None:
            self._screen = pygame.display.set_mode((width, height))
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.swapaxes(0, 1)))
        self._screen.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(self._fps)

    def close(self) -> None:
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None
        self._pygame.quit()
