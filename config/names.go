package config

// ValidGateName reports whether name is one a config may give a gate: what a report read back
// must hold too, since names become file names and lines of every report format.
func ValidGateName(name string) bool { return validGateName(name) }

// validGateName is gateNamePattern written out: loading a config checks every gate's name, and
// compiling the expression cost each stop hook about a tenth of its own time. The expression
// stays what the schema states; a test holds the two to the same answers.
func validGateName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := range len(name) {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}

// validEnvName is envNamePattern written out, for the same reason as validGateName.
func validEnvName(name string) bool {
	if name == "" {
		return false
	}
	for i := range len(name) {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
