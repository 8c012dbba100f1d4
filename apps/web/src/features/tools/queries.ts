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
  partialPreview: (id: string, seconds: number) => [...toolsKeys.all, 'partial-preview', id, seconds] as const,
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

/** A running separation's preview: fetched again each time more of it is ready (the seconds change). */
export const useTaskPartialPreview = (id: string, seconds: number, enabled: boolean) =>
  useQuery({
    queryKey: toolsKeys.partialPreview(id, seconds),
    queryFn: ({ signal }) => toolsApi.partialPreview(id, signal),
    enabled: enabled && seconds > 0,
    staleTime: Infinity,
    // The previous preview plays on while the longer one is fetched.
    placeholderData: (previous) => previous,
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
 * A `task.changed` event: the moving session's status, progress and seconds of preview ready go
 * straight into every cached list (the bar moves without a request); a new, finished, failed or
 * deleted task refetches, and so does a task whose first preview just became ready (which outputs
 * it holds comes with the task).
 */
export function applyTaskChanged(queryClient: QueryClient, change: TaskChanged): void {
  let firstPreview = false;
  const patch = (task: Task): Task => {
    if (task.id !== change.taskId) return task;
    const session = change.session;
    if (!session) return { ...task, status: change.status };
    const moved = (s: Task['sessions'][number]): Task['sessions'][number] => {
      const seconds = session.previewSeconds;
      if (seconds !== null && !s.preview) firstPreview = true;
      return {
        ...s,
        status: session.status,
        progress: session.progress,
        preview: seconds === null ? null : { seconds, kinds: s.preview?.kinds ?? [] },
      };
    };
    return { ...task, status: change.status, sessions: task.sessions.map((s) => (s.id === session.id ? moved(s) : s)) };
  };
  queryClient.setQueriesData<Task[]>({ queryKey: toolsKeys.lists() }, (tasks) => tasks?.map(patch));
  queryClient.setQueryData<Task>(toolsKeys.detail(change.taskId), (task) => (task ? patch(task) : task));
  if (change.action !== 'progress' || firstPreview) {
    void queryClient.invalidateQueries({ queryKey: toolsKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: toolsKeys.overview() });
    void queryClient.invalidateQueries({ queryKey: toolsKeys.detail(change.taskId) });
  }
}
