# mempressure in a container, for `watch` and the sweeps: the Swift toolchain image runs
# scripts/dist.sh (`make dist`: the static release binary, its man pages and completions, the
# .deb); a slim Ubuntu runtime installs that .deb, which brings the libraries its Depends names
# (libjemalloc2 and the C and C++ runtimes), and runs as an unprivileged user.
#
#   docker build -t mempressure \
#       --build-arg MEMPRESSURE_COMMIT="$(git rev-parse --short=12 HEAD)" \
#       --build-arg SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)" .
#   docker run --rm mempressure sweep --policies ios4,lru --param memory=256MiB,512MiB --seeds 10
#
# Without the two build arguments `mempressure --version` says "commit unknown" and the package's
# files are dated 1970 (the build context has no .git). deploy/kubernetes/sweep-job.yaml runs this
# image as a Kubernetes Indexed Job, one shard a pod.

# The toolchain the package is tested with (6.3); Package.swift needs at least 6.1.
ARG SWIFT_VERSION=6.3

# ---- build ----
FROM swift:${SWIFT_VERSION}-noble AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libjemalloc-dev libcrypt-dev pkg-config binutils dpkg-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Dependencies first, so that a change to the sources does not fetch them again.
COPY Package.* ./
RUN swift package --scratch-path .build-dist resolve
# Package.swift names the test targets, so their folders must exist for the manifest to load.
COPY Sources ./Sources
COPY Tests ./Tests
COPY scripts/dist.sh ./scripts/
COPY LICENSE NOTICE README.md CHANGELOG.md ./
ARG MEMPRESSURE_COMMIT=unknown
ARG SOURCE_DATE_EPOCH=0
RUN MEMPRESSURE_COMMIT="$MEMPRESSURE_COMMIT" SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" scripts/dist.sh \
    && cp dist/mempressure_*.deb /mempressure.deb

# ---- run ----
FROM ubuntu:noble
COPY --from=build /mempressure.deb /tmp/mempressure.deb
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends /tmp/mempressure.deb \
    && rm -rf /var/lib/apt/lists/* /tmp/mempressure.deb \
    && mempressure --version
# An unprivileged user; parts go to a volume mounted at /parts.
RUN useradd --system --uid 10001 --no-create-home mempressure && mkdir /parts && chown mempressure /parts
USER 10001
WORKDIR /parts
ENTRYPOINT ["mempressure"]
CMD ["--help"]
