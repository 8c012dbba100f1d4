import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateTaskBody, DomainEvent } from '@mixroom/contracts';
import { toolsApi } from './api';

type Task = Awaited<ReturnType<typeof toolsApi.get>>;

export const toolsKeys = {
  all: ['tools'] as const,
  overview: () => [...toolsKeys.all, 'overview'] as const,
  voices: () => [...toolsKeys.all, 'voices'] as const,
  lists: () => [...toolsKeys.all, 'list'] as const,
  list: (q: string) => [...toolsKeys.lists(), q] as const,
  detail: (id: string) => [...toolsKeys.all, 'detail', id] as const,
  previews: (id: string) => [...toolsKeys.all, 'previews', id] as const,
  peaks: (url: string) => [...toolsKeys.all, 'peaks', url.split('?')[0]] as const,
};

/** The credits line, whether a task runs, the limits and the engines. */
export const useToolsOverview = () =>
  useQuery({ queryKey: toolsKeys.overview(), queryFn: ({ signal }) => toolsApi.overview(signal) });

export const useVoices = () =>
  useQuery({ queryKey: toolsKeys.voices(), queryFn: ({ signal }) => toolsApi.voices(signal), staleTime: Infinity });

/** My tasks, newest first (the server sorts), filtered by name on the server. */
export const useTasks = (q: string) =>
  useQuery({ queryKey: toolsKeys.list(q), queryFn: ({ signal }) => toolsApi.list(q, signal) });

/** Each output's playable URL and peaks, once the task has outputs. */
export const useTaskPreviews = (id: string, outputs: number) =>
  useQuery({
    queryKey: [...toolsKeys.previews(id), outputs],
    queryFn: ({ signal }) => toolsApi.previews(id, signal),
    enabled: outputs > 0,
    staleTime: 5 * 60_000,
  });

export const usePeaks = (url: string | null) =>
  useQuery({
    queryKey: toolsKeys.peaks(url ?? ''),
    queryFn: ({ signal }) => toolsApi.peaks(url ?? '', signal),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });

export const useCreateTask = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTaskBody) => toolsApi.create(body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: toolsKeys.all }),
  });
};

export const useDeleteTask = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => toolsApi.remove(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: toolsKeys.all }),
  });
};

type TaskChanged = Extract<DomainEvent, { type: 'task.changed' }>['data'];

/**
 * A `task.changed` event: the moving session's status and progress go straight into every cached
 * list (the bar moves without a request); a new, finished, failed or deleted task refetches.
 */
export function applyTaskChanged(queryClient: QueryClient, change: TaskChanged): void {
  const patch = (task: Task): Task => {
    if (task.id !== change.taskId) return task;
    const session = change.session;
    return {
      ...task,
      status: change.status,
      sessions: session
        ? task.sessions.map((s) =>
            s.id === session.id ? { ...s, status: session.status, progress: session.progress } : s,
          )
        : task.sessions,
    };
  };
  queryClient.setQueriesData<Task[]>({ queryKey: toolsKeys.lists() }, (tasks) => tasks?.map(patch));
  queryClient.setQueryData<Task>(toolsKeys.detail(change.taskId), (task) => (task ? patch(task) : task));
  if (change.action !== 'progress') {
    void queryClient.invalidateQueries({ queryKey: toolsKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: toolsKeys.overview() });
    void queryClient.invalidateQueries({ queryKey: toolsKeys.detail(change.taskId) });
  }
}
