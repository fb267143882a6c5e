"""Step-by-step answers: the engine's answer cut into steps (:mod:`.steps`) and the one way
every surface moves through them (:mod:`.nav`, rendered by ``walkthrough/_steps.html``)."""

from tutorials.walkthrough.nav import StepLink, StepNav
from tutorials.walkthrough.steps import STEP_TITLES, Step, Walkthrough

__all__ = ["STEP_TITLES", "Step", "StepLink", "StepNav", "Walkthrough"]
