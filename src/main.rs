//! The `umpire` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 bad input or failed check, 2 usage).

fn main() {
    std::process::exit(umpire::cli::main_with_args(std::env::args_os()));
}
