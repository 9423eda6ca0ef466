"""ament_python build of robot_skills: the package, its launch files, config and console scripts."""

from pathlib import Path

from setuptools import find_packages, setup

PACKAGE = 'robot_skills'
HERE = Path(__file__).parent


def tree(folder: str) -> list[tuple[str, list[str]]]:
    """data_files entries installing every file below folder into share/robot_skills/folder."""
    entries: dict[str, list[str]] = {}
    for path in sorted((HERE / folder).rglob('*')):
        if path.is_file() and '__pycache__' not in path.parts:
            relative = path.relative_to(HERE)
            target = str(Path('share') / PACKAGE / relative.parent)
            entries.setdefault(target, []).append(str(relative))
    return sorted(entries.items())


setup(
    name=PACKAGE,
    version='0.1.0',
    packages=find_packages(include=['robot_skills', 'robot_skills.*']),
    data_files=[
        ('share/ament_index/resource_index/packages', [f'resource/{PACKAGE}']),
        (f'share/{PACKAGE}', ['package.xml']),
        *tree('launch'),
        *tree('config'),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='robot_skills maintainers',
    maintainer_email='robot-skills@example.com',
    description='Deterministic ROS 2 nodes for five robot skills, mock hardware and simulation.',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [f'{name} = robot_skills.executables:{name}' for name in (
            'mock_hardware', 'wayfinding_guide', 'classroom_presenter', 'learning_coordinator',
            'pbl_ta', 'learning_records', 'robot_skills_sim')] + [
            # the records' MCP server over stdio for an agent host (forwards to learning_records)
            'records_mcp = robot_skills.records.mcp.stdio:main'],
    },
)
