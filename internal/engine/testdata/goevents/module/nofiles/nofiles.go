// Package nofiles has no tests.
package nofiles
