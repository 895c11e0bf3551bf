//! The `umpire` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 bad input or failed check, 2 usage).

/// mimalloc instead of glibc's malloc: a replay makes and frees millions of small objects,
/// and glibc's free lists (with their consolidation passes) cost about a fifth of `verify`'s
/// CPU (issue 20). The library does not choose an allocator; only this binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Two of mimalloc's options, by their numbers in `mi_option_e` (its v3 mimalloc.h, the
/// version libmimalloc-sys 0.1.49 in Cargo.lock builds), both to keep `verify`'s peak memory
/// at glibc's or below (issue 20: at most twice the log plus 20 MiB):
/// * 4, `arena_eager_commit`, off: on by default on Linux, it kept whole arena chunks
///   resident (the peak went from 24 to 36 MiB);
/// * 15, `purge_delay`, 0: memory freed is given back at once instead of 10 ms later (about
///   1 MiB less at the peak, no measurable time).
///
/// mimalloc reads its options in its own constructor (priority 101) and reserves its first
/// arena at the first allocation, both before `main`: they are set from an earlier
/// constructor.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static MIMALLOC_OPTIONS: extern "C" fn() = {
    extern "C" fn set() {
        // SAFETY: sets options of the allocator before it starts; no allocation is made.
        unsafe {
            libmimalloc_sys::mi_option_set(4, 0);
            libmimalloc_sys::mi_option_set(15, 0);
        }
    }
    set
};

fn main() {
    // Like other Unix tools, stop quietly when the reader of our output goes away
    // (`umpire replay game.log | head`), instead of failing on every later print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let code = umpire::cli::main_with_args(std::env::args_os());
    umpire::cli::report_peak_memory();
    std::process::exit(code);
}
