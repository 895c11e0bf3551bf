//! The command line: one file per subcommand. The only place that prints, reads the
//! clock or the environment.
