# The Aegis image: the service, the projection worker and the command line.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY api ./api
COPY projections ./projections
COPY replay ./replay
COPY cli ./cli
COPY benchmarks ./benchmarks
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["gunicorn", "-w", "4", "-k", "api.workers.Worker", "-b", "0.0.0.0:8000", "--keep-alive", "5", "api.asgi:app"]
