# The two commands: `make demo` and `make test`. Both set up everything they need
# (scripts/setup-env is idempotent and cached), so a fresh clone needs nothing else.
ENV := scripts/with-env

.PHONY: demo test bench bench-scale eval train-crisis explore soak console setup lint lock clean

demo: ## set up, play config/scenarios/demo.yaml in the simulation; report/demo.html shows the run
	$(ENV) robot_skills_sim --scenario config/scenarios/demo.yaml --report report \
		--record report/demo.mcap

test: lint ## set up, then lint, type-check and run the whole test suite
	$(ENV) python -m pytest

bench: ## set up, then print latency, throughput and memory figures next to the rclpy floor
	$(ENV) python -m bench

bench-scale: ## set up, then a school's year of data at 10, 100, 1,000 learners: every read timed (not in CI; ~30 min)
	$(ENV) python -m bench.scale

eval: ## set up, then the crisis check's recall and false positives per category, and its time
	$(ENV) python -m bench.crisis

train-crisis: ## set up, then learn config/coordinator/crisis_model.json from the corpus's tuning part
	$(ENV) python -m bench.crisis_training

explore: ## set up, then the hostile-input suites with thousands of examples per node
	HYPOTHESIS_PROFILE=explore $(ENV) python -m pytest -o timeout=3600 -q -k hostile

soak: ## set up, then start and signal every executable 100 times (status 0 within 2 s each)
	ROBOT_SKILLS_STARTS=100 $(ENV) python -m pytest -o timeout=7200 -q test/test_shutdown.py

console: ## set up, then type utterances to the simulated robots
	$(ENV) robot_skills_sim --console

setup: ## only create or refresh the environment
	scripts/setup-env

lint: ## set up, then ruff (ruff.toml) and mypy (mypy.ini): zero findings is the gate
	$(ENV) ruff check robot_skills test bench launch setup.py scripts/lock
	$(ENV) mypy

lock: ## re-pin constraints.txt from the current environment
	$(ENV) python scripts/lock

clean:
	rm -rf build install log .venv
