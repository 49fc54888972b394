# The Aegis image: the service, the projection worker and the command line (one package, aegis: src/aegis links
# the folders into it). The benchmarks run from a checkout, not from the image.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY api ./api
COPY projections ./projections
COPY replay ./replay
COPY cli ./cli
COPY src ./src
RUN pip install --no-cache-dir .
# the processes run as a user of their own, not as root: nothing in the image is theirs to change
RUN useradd --create-home --uid 10001 aegis
USER aegis
EXPOSE 8000
CMD ["gunicorn", "-w", "4", "-k", "aegis.api.workers.Worker", "-b", "0.0.0.0:8000", "--keep-alive", "5", "aegis.api.asgi:app"]
