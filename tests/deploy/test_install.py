"""The deploy artefacts, as far as they run without a Docker engine or systemd as PID 1:

* with ``WXBOT_LONG=1`` (CI): ``deploy/install.sh`` into a temporary root, then the installed ``wxbot``
  (migrations, a chat turn), and the Dockerfile's build stage: its COPY lines from the repository into
  a scratch image root and its RUN lines there (the package installs ``apt-get`` would do are left
  out), then the entry point;
* the Dockerfile's stages;
* ``compose.yaml``: the Compose schema (``docker-compose config``) and its wiring;
* the systemd units (``systemd-analyze verify``), the nginx routes and the Procfile (``honcho check``).

The virtualenvs get wxbot alone (``--no-deps``: a full install downloads and builds every
dependency, over ten minutes here) and see this test run's packages through a ``.pth`` file.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.cli import COMMANDS
from tests.harness.tiers import LONG

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
WXBOT_BIN = "${WXBOT_BIN:-.venv/bin/wxbot}"  # the Procfile's wxbot: the README's virtualenv unless told


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "DATABASE_", "WXBOT_PIP"))}
    env["WXBOT_PIP_ARGS"] = "--no-deps"  # wxbot alone; its dependencies come from this run's (.pth below)
    return env


def _share_packages(venv: Path) -> None:
    lib = next((venv / "lib").glob("python3*/site-packages"))
    (lib / "zz-test-run-packages.pth").write_text("\n".join(site.getsitepackages()) + "\n")


def _install(root: Path, *args: str, source: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(source / "deploy" / "install.sh"), "--root", str(root), "--source",
                           str(source), "--no-user", *args], env=_env(), capture_output=True, text=True,
                          timeout=1200, check=False)


@pytest.mark.skipif(not LONG, reason="set WXBOT_LONG=1 (CI): install.sh builds a virtualenv with pip (the slowest "
                                     "test of a run); every run checks the artefacts it installs")
def test_install_script_into_a_temporary_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    env_file = tmp_path / "env"
    env_file.write_text("WECHAT_TOKEN=install-test\nWEATHER_FAKE=true\nADMIN_TOKEN=install-admin-token\n")
    first = _install(root, "--env-file", str(env_file), "--only", "folders venv env")
    assert first.returncode == 0, first.stderr
    venv = root / "opt" / "wxbot" / "venv"
    _share_packages(venv)
    second = _install(root, "--only", "migrate units")
    assert second.returncode == 0, second.stderr

    data, conf = root / "var" / "lib" / "wxbot", root / "etc" / "wxbot"
    assert (data.stat().st_mode & 0o777, conf.stat().st_mode & 0o777) == (0o750, 0o750)
    assert (conf / "env").stat().st_mode & 0o777 == 0o640
    assert "DATA_DIR=/var/lib/wxbot" in (conf / "env").read_text()
    assert "upgraded empty → " in second.stdout and (data / "wxbot.db").exists()
    units = sorted(p.name for p in (root / "etc" / "systemd" / "system").iterdir())
    assert units == ["wxbot-scheduler.service", "wxbot-web.service", "wxbot-worker@.service"]

    # an existing env file is kept; the installed wxbot runs outside the checkout
    again = _install(root, "--env-file", str(DEPLOY / ".env.example"), "--only", "env")
    assert "kept the existing" in again.stdout and "install-admin-token" in (conf / "env").read_text()
    wxbot = venv / "bin" / "wxbot"
    status = subprocess.run([str(wxbot), "db", "status"], cwd=tmp_path, capture_output=True, text=True,
                            env=_env() | {"DATA_DIR": str(data)}, timeout=300, check=False)
    assert status.returncode == 0 and "up to date" in status.stdout, status.stdout + status.stderr
    chat = subprocess.run([str(wxbot), "chat"], input="今天几号\n", cwd=tmp_path, capture_output=True, text=True,
                          env=_env() | {"DATA_DIR": str(tmp_path / "chat")}, timeout=300, check=False)
    assert "今天是" in chat.stdout, chat.stdout + chat.stderr

    verify = shutil.which("systemd-analyze")
    if verify:  # the units' syntax and their ExecStart binaries inside the staged root
        out = subprocess.run([verify, "verify", f"--root={root}", *(f"/etc/systemd/system/{u}" for u in units
                                                                    if "@" not in u)],
                             capture_output=True, text=True, timeout=60, check=False)
        problems = [line for line in (out.stdout + out.stderr).splitlines()
                    if "wxbot" in line and "Failed to" not in line]
        assert not problems, problems


def _build_stage(dockerfile: str) -> list[tuple[str, str]]:
    """The (instruction, arguments) lines of the first stage, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", dockerfile)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    first = lines[stages[0] + 1:stages[1]]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in first]


def test_the_dockerfile_has_a_build_stage_and_a_slim_run_stage() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.\d+-slim AS build$", dockerfile, re.M)
    run_stage = dockerfile[dockerfile.index("\nFROM python", dockerfile.index("AS build")):]
    assert "COPY --from=build /opt/wxbot/venv /opt/wxbot/venv" in run_stage
    assert re.search(r"^USER wxbot$", run_stage, re.M) and 'ENTRYPOINT ["wxbot"]' in run_stage
    assert "build-essential" not in run_stage  # compilers stay in the build stage
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    assert ignore[ignore.index("**") + 1:ignore.index("**") + 7] == [
        "!pyproject.toml", "!README.md", "!bot/**", "!runtime/**", "!skills/**", "!deploy/**"]


@pytest.mark.skipif(not LONG, reason="set WXBOT_LONG=1 (CI): the build stage runs deploy/install.sh, which every "
                                     "run checks on its own above")
def test_the_dockerfile_build_stage_runs_as_a_script(tmp_path: Path) -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    image = tmp_path / "image"
    for instruction, args in _build_stage(dockerfile):
        if instruction == "COPY":
            *sources, dest = shlex.split(args)
            target = image / dest.lstrip("/")
            for src in sources:
                origin = ROOT / src
                if origin.is_dir():
                    shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__", ".wxbot"))
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(origin, target / origin.name)
        elif instruction == "RUN" and "apt-get" not in args:
            command = shlex.split(args.replace(" /src", f" {image}/src")) + ["--root", str(image)]
            done = subprocess.run(command, env=_env(), capture_output=True, text=True, timeout=1200, check=False)
            assert done.returncode == 0, done.stderr
    venv = image / "opt" / "wxbot" / "venv"
    _share_packages(venv)
    # the entry point of the image, from the virtualenv alone (no checkout on the path)
    out = subprocess.run([str(venv / "bin" / "wxbot"), "db", "upgrade"], cwd=tmp_path, capture_output=True,
                         text=True, env=_env() | {"DATA_DIR": str(tmp_path / "data")}, timeout=300, check=False)
    assert out.returncode == 0 and "upgraded empty → " in out.stdout, out.stdout + out.stderr


def test_compose_file_is_valid_and_wired(tmp_path: Path) -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"redis", "postgres", "migrate", "web", "worker", "scheduler"}
    assert services["migrate"]["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert (DEPLOY / services["migrate"]["build"]["dockerfile"].removeprefix("deploy/")).exists()
    for name in ("migrate", "web", "worker", "scheduler"):
        service = services[name]
        assert service["image"] == "wxbot:local" and service["env_file"] == ".env"
        assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
        assert service["command"][0] in COMMANDS, service["command"]
        env = service["environment"]
        assert env["REDIS_URL"] == "redis://redis:6379/0" and "@postgres:5432/wxbot" in env["DATABASE_URL"]
    for name in ("web", "worker", "scheduler"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert services[name]["environment"]["DB_UPGRADE_ON_START"] == "false"
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert "--appendonly" in services["redis"]["command"]

    checker = shutil.which("docker-compose")
    if checker is None:
        pytest.skip("docker-compose not installed: the Compose schema check did not run")
    copy = tmp_path / "repo" / "deploy"  # with the deploy/.env the README has the user create
    shutil.copytree(DEPLOY, copy)
    shutil.copy(DEPLOY / ".env.example", copy / ".env")
    out = subprocess.run([checker, "-f", str(copy / "compose.yaml"), "config", "--quiet"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr


def test_nginx_sends_the_webhook_admin_and_simulator_to_the_app() -> None:
    conf = (DEPLOY / "nginx" / "wxbot.conf").read_text()
    upstream = re.search(r"upstream wxbot_web \{\s*server ([\d.:]+);", conf)
    assert upstream and upstream.group(1) == "127.0.0.1:8000"
    targets = dict(re.findall(r"location ([^{]+?) \{[^}]*?proxy_pass (\S+);", conf))
    assert targets == {"/wechat": "http://wxbot_web", "~ ^/(admin|simulator)(/|$)": "http://wxbot_web"}
    assert "8001" not in conf and "client_max_body_size 64k;" in conf


def test_procfile_names_its_runner_and_runs_wxbot_commands() -> None:
    text = (ROOT / "Procfile").read_text()
    assert "honcho" in text
    processes = dict(re.findall(r"^(\w+): (.+)$", text, re.M))
    assert set(processes) == {"web", "worker", "scheduler"}
    for command in processes.values():  # the process manager's signals reach wxbot itself, not a shell
        words = command.split()
        assert words[:2] == ["exec", WXBOT_BIN] and words[2] in COMMANDS
    honcho = Path(sys.executable).parent / "honcho"
    out = subprocess.run([str(honcho), "-f", str(ROOT / "Procfile"), "check"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0 and "web, worker, scheduler" in out.stdout + out.stderr, out.stdout + out.stderr


def test_one_scheduler_everywhere_and_the_docs_say_so() -> None:
    """Compose, the Procfile and systemd run one scheduler; README and deploy/README.md say one, and
    that a standby belongs on a second machine."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert "replicas" not in (compose["scheduler"].get("deploy") or {})
    assert compose["web"]["environment"]["FORWARDED_ALLOW_IPS"] == "*"  # nginx via Docker's gateway
    assert re.findall(r"^scheduler: .+$", (ROOT / "Procfile").read_text(), re.M) == [f"scheduler: exec {WXBOT_BIN} scheduler"]
    assert not (DEPLOY / "systemd" / "wxbot-scheduler@.service").exists()
    assert "wxbot-scheduler" in (DEPLOY / "install.sh").read_text()
    readme = (ROOT / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `wxbot scheduler`"))
    assert "run two" not in row and "one" in row and "standby" in row, row
    assert "### One scheduler, and a standby" in (DEPLOY / "README.md").read_text()
