"""The all-in-one simulation: mock robots, their skills, scenarios and a console."""
