"""The ``accord`` command: one module per command, shared options declared once (:mod:`._options`)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import warnings
from collections.abc import Callable, Collection, Sequence
from importlib import import_module
from types import ModuleType

from .._support.memory import return_large_blocks
from .._support.threads import one_blas_thread
from ..errors import AccordError, OptionError
from ._options import Parser, add_common

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_BAD_INPUT", "EXIT_BUG"]

_MODULE_NAMES = ("score", "compare", "report", "structures", "agree", "gate", "spans", "convert", "check", "tagfiles")
"""The command modules (each has ``register(sub)`` and ``COMMANDS``), in the order of the help's list."""

COMMAND_MODULES = {"score": "score", "compare": "compare", "report": "report", "coref": "structures",
                   "smatch": "structures", "structured": "structures", "agree": "agree", "diff": "gate",
                   "qa": "gate", "benchmark": "gate", "adjudicate": "gate", "bdm": "gate", "errors": "spans",
                   "merge": "spans", "convert": "convert", "check": "check", "validate": "tagfiles",
                   "repair": "tagfiles", "count": "tagfiles"}
"""Each command and the module that registers and runs it (a test checks it against the modules' ``COMMANDS``):
running a command imports that module only and builds that command's options only."""


def _modules(names: Collection[str] = _MODULE_NAMES) -> list[ModuleType]:
    return [import_module(f".{name}", __name__) for name in _MODULE_NAMES if name in names]


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``accord`` command.

    Parameters
    ----------
    commands : collection of str, optional
        Build the subcommands of these commands only (with the others of their modules), what running one of them
        needs; by default every command and the list of modes (the full ``accord --help``).
    """
    parser = Parser(prog="accord", description="Compare annotations: a system against gold, "
                    "or annotators against each other.",
                    epilog=_modes_epilog() if commands is None else None,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, nargs=0, help="show accord's version and exit")
    parser.add_argument("--print-completion", action=_Completion, choices=("bash", "zsh", "tcsh"), metavar="SHELL",
                        help="print a completion script for SHELL (bash, zsh, tcsh) made from these options, and exit "
                             "(bash: eval \"$(accord --print-completion bash)\"; needs the completion extra)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    names = _MODULE_NAMES if commands is None else {COMMAND_MODULES[c] for c in commands}
    for module in _modules(names):
        module.register(sub)
    for command in sub.choices.values():
        add_common(command)
    return parser


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser that reads ``argv``: a command's alone when ``argv`` starts with its name, none for ``--version``
    (which exits before a command is looked for), else all of them (the full help, and an unknown command's error
    listing the commands)."""
    if argv and argv[0] in COMMAND_MODULES:
        return build_parser([argv[0]])
    if list(argv[:1]) == ["--version"]:
        return build_parser(())
    return build_parser()


def _modes_epilog() -> str:
    """The registered modes (:mod:`accord.modes`), each with the command that runs it."""
    from ..modes import mode, mode_names

    lines = ["modes (accord.modes; accord score --match NAME, or the mode's own command):"]
    for name in mode_names():
        m = mode(name)
        run = f"score --match {name}" if m.command == "score" else m.command
        lines.append(f"  {name:<11} accord {run:<22} {m.summary}")
    return "\n".join(lines)


class _Completion(argparse.Action):
    """``--print-completion SHELL``: the shell's completion script for every command and option, generated from this
    parser by shtab (imported only when asked for)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        try:
            import shtab
        except ImportError:
            parser.error("--print-completion needs shtab: pip install 'accord[completion]'")
        print(shtab.complete(parser, shell=str(values)))
        parser.exit()


class _Version(argparse.Action):
    """``--version``: the installed package's version, read (from its metadata) only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from .. import __version__

        print(f"accord {__version__}")     # on standard output, as argparse's own version action
        parser.exit()


EXIT_OK, EXIT_BAD_INPUT, EXIT_BUG = 0, 2, 3
"""Exit statuses: success; bad input or options (one line naming the file, line, document or
option); an unexpected exception, which is a defect in accord (one line, never a traceback)."""


def _os_message(exc: OSError) -> str:
    """An operating system's error as one line naming the file, never ``[Errno N]``: ``FILE: No such file or
    directory``; a write that failed without a file name (a full disk) says that it was the output."""
    import errno

    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
        return f"writing the output failed: {reason}"
    return reason


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush finds no closed pipe."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # pragma: no cover - a stdout without a descriptor (a caller's StringIO)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command and return its exit status: 0, 2 for bad input or options, 3 for a defect in accord."""
    from .._support.io import text_encoding
    from .._support.progress import progress_enabled
    from .._support.surface import command_line

    try:
        words = sys.argv[1:] if argv is None else list(argv)
        parser = _parser_for(words)
        args = parser.parse_args(words)
    except KeyboardInterrupt:   # Ctrl-C while the options are read: the same one line as later
        print("accord: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:     # --print-completion, --help or --version read by a reader that went away (| head)
        _quiet_stdout()
        return EXIT_OK
    from ._stdin import standard_input  # (pathlib, tempfile, shutil: not before a command runs)

    # a short-lived command building many small immutable objects and no reference cycles worth
    # collecting: the cyclic collector would only rescan them (about a third of the run time);
    # a caller's collector is left as it was found
    collecting = gc.isenabled()
    gc.disable()
    if argv is None:   # the command's own process (not a caller's): large arrays go back to the system, and
        return_large_blocks()   # OpenBLAS starts one thread, not one a core (accord gives it no work)
        one_blas_thread()
    try:
        with text_encoding(args.encoding), warnings.catch_warnings(), standard_input(args), \
                progress_enabled(not args.quiet), command_line(sys.argv[1:] if argv is None else argv):
            warnings.simplefilter("default")
            warnings.showwarning = _show_warning
            return _run(args)
    except AccordError as exc:
        print(f"accord: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):   # the reader of our output went away (| head)
            _quiet_stdout()
            return EXIT_OK
        print(f"accord: error: {_one_line(_os_message(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("accord: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no user sees a traceback
        where = ""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        print(f"accord: internal error (a bug in accord, please report it with the command and input): "
              f"{type(exc).__name__}{where}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BUG
    finally:
        if collecting:
            gc.enable()
        if argv is None:    # the command's own process, about to exit: its objects are not scanned at exit (with
            gc.freeze()     # distributed loaded, --dask, the collection at exit took 0.1-0.2 s of wall time)


def _show_warning(message: Warning | str, category: type, filename: str, lineno: int, file: object = None,
                  line: str | None = None) -> None:
    """Warnings reach the user as one line each on standard error, without Python's source line."""
    print(f"accord: warning: {_one_line(str(message))}", file=sys.stderr)


MAX_MESSAGE = 2000
"""The longest message printed, in characters: readers quote input through ``errors.quoted``; this is the last
resort for a message that quotes too much (its middle is cut, saying how much)."""


def _one_line(message: str) -> str:
    """A message on one line (readers' messages may quote several lines of input), at most :data:`MAX_MESSAGE`
    characters."""
    if "\n" in message or "\r" in message:
        message = " ".join(message.split())
    if len(message) > MAX_MESSAGE:
        cut = len(message) - MAX_MESSAGE
        message = f"{message[:MAX_MESSAGE // 2]} [... {cut:,} characters cut ...] {message[-MAX_MESSAGE // 2:]}"
    return message


def _refuse_shared_outputs(args: argparse.Namespace, names: list[str]) -> None:
    """Two outputs of one command to one file (the last would silently win), or two to standard output (they
    would be mixed), are an error naming both options."""
    import os

    seen: dict[str, str] = {}
    for name in names:
        value = getattr(args, name)
        where = "-" if value == "-" else os.path.realpath(value)
        option = "-o" if name == "out" else "--" + name.replace("_", "-")
        if where in seen:
            what = "standard output" if where == "-" else value
            raise OptionError(f"{seen[where]} and {option} both write to {what}; give each output its own file")
        seen[where] = option


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "out", None) == "-":   # -o - is standard output
        if args.command in ("adjudicate", "merge"):
            raise OptionError(f"-o -: accord {args.command} writes a corpus to a file; give a file name")
        args.out = None
    commands: dict[str, Callable[[argparse.Namespace], int]] = {}
    for module in _modules({COMMAND_MODULES.get(args.command, "")}):
        commands.update(module.COMMANDS)
    if args.command not in commands:
        raise OptionError(f"unknown command {args.command!r}")  # pragma: no cover - argparse refuses first
    from .._support.plugins import enabled_plugins
    from .._support.safe_paths import check_not_input, check_output_folder, protected_inputs

    outputs = [getattr(args, name) for name in _OUTPUTS if isinstance(getattr(args, name, None), str)
               and (name != "output" or args.command == "convert")]
    inputs = [v for name, value in vars(args).items() if name not in _OUTPUTS
              for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v]
    _refuse_shared_outputs(args, [name for name in _OUTPUTS if isinstance(getattr(args, name, None), str)
                                  and (name != "output" or args.command == "convert")])
    with protected_inputs(inputs), enabled_plugins(getattr(args, "plugins", None) or ()):
        for out in outputs:
            check_not_input(out)     # before anything is read: an input is never overwritten
            check_output_folder(out)     # nor is any work done for an output that has nowhere to go
        return commands[args.command](args)


_OUTPUTS = ("out", "output", "details", "html", "tsv", "csv", "mat_csv", "queue", "queue_html")
"""The options naming files a command writes (``output``: the file of ``accord convert``; of other commands, a
format name)."""
