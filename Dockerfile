# The paylinks sandbox as a container: `docker build -t paylinks .` then
# `docker run -p 127.0.0.1:4010:4010 paylinks`. Any paylinks command runs in it too:
# `docker run --rm paylinks purchase --sku starter_pack_001`.

# The build: the release binary (statically linked against the Swift runtime), its manual
# page and completions, from the toolchain's image.
FROM swift:6.3-noble AS build
WORKDIR /src
COPY . .
RUN make install PREFIX=/opt/paylinks

# The run: the binary alone, on the same Ubuntu release (it needs glibc and libgcc_s,
# which the base image has), as a user that is not root.
FROM ubuntu:24.04
RUN groupadd --system --gid 10001 paylinks \
    && useradd --system --no-create-home --uid 10001 --gid 10001 --shell /usr/sbin/nologin paylinks \
    && install -d -o 10001 -g 10001 /data
COPY --from=build /opt/paylinks/bin/paylinks /usr/local/bin/paylinks
COPY --from=build /opt/paylinks/share/man/man1/paylinks.1 /usr/local/share/man/man1/paylinks.1
# By number, which a host's policy (runAsNonRoot) can check without the image's passwd.
USER 10001:10001
WORKDIR /data
EXPOSE 4010
# `paylinks health` asks the sandbox's GET /control/v1/health: the image needs no curl. A
# sandbox started on another port needs its own health check.
HEALTHCHECK --interval=5s --timeout=10s --start-period=10s --retries=3 \
    CMD ["paylinks", "health", "http://127.0.0.1:4010"]
ENTRYPOINT ["paylinks"]
# Reached from the other containers and the host: every interface. Arguments after the
# image replace all of this, so give these two again with your own:
#   docker run ... paylinks serve --host 0.0.0.0 --port 4010 --data /data --allowed-host NAME
# (--data /data on a volume keeps the sessions; NAME is the one other containers use).
CMD ["serve", "--host", "0.0.0.0", "--port", "4010"]
