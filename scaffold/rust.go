package scaffold

import "time"

func detectRust(dir string) *Project {
	if !exists(dir, "Cargo.toml") {
		return nil
	}
	// Compiling is most of the time of clippy and of the tests, hence their longer timeouts.
	return &Project{Kind: "Rust", Gates: []Gate{
		{Name: "fmt", Comment: "files that rustfmt would reformat", Run: "cargo fmt --check",
			Timeout: 2 * time.Minute, Hint: "Run `cargo fmt`."},
		{Name: "lint", Comment: "clippy's lints, warnings included", Run: "cargo clippy --all-targets -- -D warnings",
			Timeout: 15 * time.Minute, Hint: "Run `cargo clippy --fix --allow-dirty` first."},
		{Name: "test", Comment: "the tests", Run: "cargo test",
			Timeout: 15 * time.Minute},
	}}
}
