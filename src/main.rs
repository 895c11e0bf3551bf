//! The `umpire` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 bad input or failed check, 2 usage).

fn main() {
    // Like other Unix tools, stop quietly when the reader of our output goes away
    // (`umpire replay game.log | head`), instead of failing on every later print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(umpire::cli::main_with_args(std::env::args_os()));
}
