#!/usr/bin/env python3
"""Types command lines into a real interactive shell, as a user would, and reports what
paylinks' completions made of them.

Usage: complete_in_pty.py PAYLINKS bash|zsh|fish DIRECTORY LINE...

The shell runs on a pseudo-terminal in DIRECTORY, with paylinks' completion script for it
loaded and `paylinks` defined as a function that writes the words it was called with to a
file. Each LINE is typed with `\\t` standing for the Tab key, followed by `END` and Enter:
whatever completion inserted shows in the words, and `END` shows whether it ended the word
(a space) or not. One JSON object per line is printed: {"typed": LINE, "words": [...]}.

Each wait is bounded: the words are awaited up to 20 s, then the line is reported with
"words": null.
"""
import json
import os
import pty
import select
import subprocess
import sys
import time

paylinks, shell, directory = sys.argv[1], sys.argv[2], sys.argv[3]
lines = sys.argv[4:]
work = os.path.abspath(directory)
out = os.path.join(work, ".words")


def script(name):
    return subprocess.run([paylinks, "completions", name], check=True, capture_output=True, text=True).stdout


setup_dir = os.path.join(work, ".setup")
os.makedirs(setup_dir, exist_ok=True)
if shell == "bash":
    with open(os.path.join(setup_dir, "rc"), "w") as rc:
        rc.write(script("bash"))
        rc.write('paylinks() { printf "%%s\\n" "$@" > %s; }\n' % json.dumps(out))
        rc.write("PS1='$ '\nbind 'set bell-style none'\nbind 'set show-all-if-ambiguous off'\n")
    argv = ["bash", "--noprofile", "--rcfile", os.path.join(setup_dir, "rc"), "-i"]
elif shell == "zsh":
    with open(os.path.join(setup_dir, "_paylinks"), "w") as f:
        f.write(script("zsh"))
    with open(os.path.join(setup_dir, ".zshrc"), "w") as rc:
        rc.write("fpath=(%s $fpath)\nautoload -Uz compinit && compinit -u -D\n" % setup_dir)
        rc.write("paylinks() { print -l -- \"$@\" > %s }\n" % out)
        rc.write("PS1='$ '\nunsetopt beep\nsetopt no_list_beep\n")
    argv = ["zsh", "-i"]
elif shell == "fish":
    config = os.path.join(setup_dir, "fish")
    os.makedirs(os.path.join(config, "completions"), exist_ok=True)
    with open(os.path.join(config, "completions", "paylinks.fish"), "w") as f:
        f.write(script("fish"))
    with open(os.path.join(config, "config.fish"), "w") as rc:
        rc.write("function paylinks; printf '%%s\\n' $argv > %s; end\n" % out)
        rc.write("function fish_prompt; echo '$ '; end\nset -g fish_greeting ''\n")
        rc.write("set -g fish_autosuggestion_enabled 0\n")
    argv = ["fish", "--no-config", "-C", "source %s/config.fish; set -p fish_complete_path %s/completions" % (config, config), "-i"]
else:
    sys.exit("unknown shell %r" % shell)

env = dict(os.environ, HOME=setup_dir, ZDOTDIR=setup_dir, TERM="xterm", LANG="C.UTF-8")
pid, fd = pty.fork()
if pid == 0:
    os.chdir(work)
    os.execvpe(argv[0], argv, env)


def drain(seconds):
    """Reads what the shell prints for up to `seconds`, returning as soon as it is quiet."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            return
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


def words_after(typed):
    if os.path.exists(out):
        os.remove(out)
    os.write(fd, typed.replace("\\t", "\t").encode() + b"END\r")
    end = time.monotonic() + 20
    while time.monotonic() < end:
        drain(0.1)
        if os.path.exists(out):
            # The function writes the file in one call; read it once it is whole.
            with open(out) as f:
                text = f.read()
            if text.endswith("\n"):
                return text.splitlines()
    return None


drain(5)
for line in lines:
    words = words_after(line)
    # A line that left the shell mid-completion (a menu, a prompt) is cleared before the next.
    if words is None:
        os.write(fd, b"\x03")
        drain(1)
    print(json.dumps({"typed": line, "words": words}), flush=True)
os.write(fd, b"exit\r")
drain(2)
try:
    os.kill(pid, 9)
except OSError:
    pass
