package config

// ValidGateName reports whether name is one a config may give a gate: what a report read back
// must hold too, since names become file names and lines of every report format.
func ValidGateName(name string) bool { return gateNamePattern().MatchString(name) }
