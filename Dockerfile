# mempressure in a container: the Swift toolchain image builds a release binary with the Swift
# standard library linked statically; a slim Ubuntu runtime with libjemalloc2 runs it.
#
#   docker build -t mempressure .
#   docker run --rm mempressure sweep --policies ios4,lru --param memory=256MiB,512MiB --seeds 10
#
# deploy/kubernetes/sweep-job.yaml runs this image as a Kubernetes Indexed Job, one shard a pod.

# The toolchain the package is tested with (6.3); Package.swift needs at least 6.1.
ARG SWIFT_VERSION=6.3

# ---- build ----
FROM swift:${SWIFT_VERSION}-noble AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libjemalloc-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Dependencies first, so that a change to the sources does not fetch them again.
COPY Package.swift Package.resolved ./
RUN swift package resolve
# Package.swift names the test targets, so their folders must exist for the manifest to load.
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product mempressure --static-swift-stdlib \
    && mkdir -p /staging \
    && cp "$(swift build -c release --show-bin-path)/mempressure" /staging/ \
    && find -L "$(swift build -c release --show-bin-path)/" -maxdepth 1 -regex '.*\.resources$' \
        -exec cp -Ra {} /staging/ \;

# ---- run ----
FROM ubuntu:noble
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libjemalloc2 \
    && rm -rf /var/lib/apt/lists/*
# The binary and its resource bundle (the shipped policies) side by side.
COPY --from=build /staging/ /usr/local/lib/mempressure/
RUN ln -s /usr/local/lib/mempressure/mempressure /usr/local/bin/mempressure
# An unprivileged user; parts go to a volume mounted at /parts.
RUN useradd --system --uid 10001 --no-create-home mempressure && mkdir /parts && chown mempressure /parts
USER 10001
WORKDIR /parts
ENTRYPOINT ["mempressure"]
CMD ["--help"]
