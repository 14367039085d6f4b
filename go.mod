module github.com/gauntlet-dev/gauntlet

go 1.25.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/creack/pty v1.1.24
	github.com/fatih/color v1.19.0
	github.com/gofrs/flock v0.13.1
	github.com/reviewdog/errorformat v0.0.0-20260721110140-13bff69235f3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/tailscale/hujson v0.0.0-20250605163823-992244df8c5a
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
	mvdan.cc/sh/v3 v3.13.1
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
