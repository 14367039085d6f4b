package main

import (
	"crypto/rand"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
)

func newCacheCmd(ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Helpers for the remote cache (the key pair that signs its entries)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCacheKeygenCmd(ios, nil))
	return cmd
}

// keygenOptions are keygen's surroundings; it has no flags.
type keygenOptions struct {
	IO *IOStreams
	// Random is where the key comes from: crypto/rand, or a fixed source in a test.
	Random io.Reader
}

func newCacheKeygenCmd(ios *IOStreams, runF func(*keygenOptions) error) *cobra.Command {
	opts := &keygenOptions{IO: ios, Random: rand.Reader}
	return &cobra.Command{
		Use:   "keygen",
		Short: "Make the key pair that signs remote cache entries",
		Long: `Make an Ed25519 key pair for the remote cache and print both halves:

  the public key, for cache.remote.public_keys in .gauntlet.yml (commit it): every
  reader checks entries with it;
  the private key, for the secret $` + remotecache.SigningKeyEnv + ` of the CI runs
  that write (cache.remote.write: true), and nowhere else: whoever holds it can put
  passes on the server that every machine believes.

Each key is on a line of its own (ed25519:... and ed25519-private:...); the other
lines are comments. Nothing is written to disk.`,
		Args: cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return printKeyPair(opts)
		}),
	}
}

func printKeyPair(opts *keygenOptions) error {
	public, private, err := remotecache.GenerateKey(opts.Random)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(opts.IO.Out, `# Public key: add it to cache.remote.public_keys in .gauntlet.yml, and commit it.
%s
# Private key: store it as the secret %s of the CI runs that write
# (cache.remote.write: true), never in the repository nor on a developer's or an agent's machine.
%s
`, public, remotecache.SigningKeyEnv, private)
	if err != nil {
		return fmt.Errorf("write the key pair: %w", err)
	}
	return nil
}
