# The container image of a release, built by goreleaser (dockers_v2 in .goreleaser.yaml) from
# the binaries it already built: nothing is compiled here. distroless/static holds CA
# certificates, tzdata and a nonroot user, and no shell: gauntlet is a static binary.
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/gauntlet-dev/gauntlet validate
#   COPY --from=ghcr.io/gauntlet-dev/gauntlet:1 /usr/bin/gauntlet /usr/local/bin/gauntlet
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/gauntlet /usr/bin/gauntlet
ENTRYPOINT ["/usr/bin/gauntlet"]
