//! The `umpire` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 bad input or failed check, 2 usage).

/// mimalloc instead of glibc's malloc: a replay makes and frees millions of small objects,
/// and glibc's free lists (with their consolidation passes) cost about a fifth of `verify`'s
/// CPU (issue 20). The library does not choose an allocator; only this binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `arena_eager_commit` (option 4 of `mi_option_e` in its v3 mimalloc.h) is on by
/// default on Linux and keeps whole arena chunks resident: `verify`'s peak memory went from
/// 24 to 36 MiB. Off, the peak is glibc's and the speed is kept (issue 20). mimalloc reads its
/// options in its own constructor (priority 101) and reserves its first arena at the first
/// allocation, both before `main`: the option is set from an earlier constructor.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static MIMALLOC_OPTIONS: extern "C" fn() = {
    extern "C" fn set() {
        // SAFETY: sets one option of the allocator before it starts; no allocation is made.
        unsafe { libmimalloc_sys::mi_option_set(4, 0) }
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
    std::process::exit(umpire::cli::main_with_args(std::env::args_os()));
}
